// http_fixture_server DIR [--until-signal]: serves the files below DIR on
// 127.0.0.1 (a port the kernel picks, printed on stdout as one line) for the
// e2e scripts. It stops at EOF on stdin, or with --until-signal only on
// SIGTERM / SIGINT (a background job's stdin is often /dev/null).
#include <signal.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "support/http_fixture_server.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::strcmp(argv[2], "--until-signal") != 0)) {
    std::cerr << "usage: http_fixture_server DIR [--until-signal]\n";
    return 2;
  }
  const bool until_signal = argc == 3;
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  if (until_signal) {
    // Blocked before the server thread starts, so only sigwait sees them.
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  }
  try {
    skillrt::test::HttpFixtureServer server(skillrt::test::HttpFixtureServer::directory(argv[1]));
    std::cout << server.port() << std::endl;
    if (until_signal) {
      int received = 0;
      sigwait(&signals, &received);
    } else {
      std::string ignored;
      while (std::getline(std::cin, ignored)) {
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "http_fixture_server: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
