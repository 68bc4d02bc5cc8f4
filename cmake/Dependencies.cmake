# Every third-party dependency, with its minimum version, in one place.
# All of them are Debian 12 packages (scripts/bootstrap installs them); nothing
# is downloaded at build time.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

pkg_check_modules(YAML REQUIRED IMPORTED_TARGET yaml-0.1>=0.2.5)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
# libcrypto only (SHA-256 of skill contents); TLS comes with the network layer.
find_package(OpenSSL 3.0 REQUIRED COMPONENTS Crypto)
# The database adapters (src/store): embedded SQLite (FTS5) and the libpq client.
find_package(SQLite3 3.38 REQUIRED)
find_package(PostgreSQL 15 REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED CONFIG)
find_package(CLI11 2.1 REQUIRED CONFIG)
find_package(tl-expected 1.0 REQUIRED CONFIG)
# Boost.Beast/Asio (headers only) for the HTTP transport in src/net; the 1.81
# package, not bookworm's default 1.74 (newer Asio).
find_package(Boost 1.81 REQUIRED CONFIG)
# Install sources (src/sources): archives, git repositories, https downloads.
find_package(LibArchive 3.6 REQUIRED)
pkg_check_modules(GIT2 REQUIRED IMPORTED_TARGET libgit2>=1.5)
find_package(CURL 7.88 REQUIRED)
# Markdown → HTML for the web UI (src/web/markdown_html.cpp): md4c's parser only.
pkg_check_modules(MD4C REQUIRED IMPORTED_TARGET md4c>=0.4.8)
# ed25519 signatures of skill bundles (src/core/hub/ed25519.cpp).
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium>=1.0.18)

if(SKILLRT_BUILD_TESTS)
  find_package(GTest 1.12 REQUIRED CONFIG)
endif()
if(SKILLRT_BUILD_BENCH)
  find_package(benchmark 1.7 REQUIRED CONFIG)
endif()
