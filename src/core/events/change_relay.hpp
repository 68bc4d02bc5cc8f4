// The change relay of one replica (issue 4/6): the bridge between the shared
// change log (change_log.hpp) and this process's EventBus.
//
// - Every event published on the bus goes to the log first (the bus's
//   forwarder), and is then delivered here with the log's sequence number,
//   so every replica tells every client the same events with the same
//   numbers. A write's own event is delivered before publish() returns, so
//   the next request on this replica sees the write.
// - One thread waits on the log's wake-up (PostgreSQL LISTEN), reads what
//   arrived since the last row it delivered and delivers it in order. It
//   reconnects with backoff when the connection drops, and after every
//   (re)connect it catches up from the log, so a notification sent while it
//   was away loses nothing. It also reads the log every `poll` without a
//   wake-up, in case one went missing.
// - Bursts cost one read each: the thread reads every row there is in
//   batches, however many wake-ups arrived meanwhile.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/events/change_log.hpp"
#include "core/events/event_bus.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

class ChangeRelay {
 public:
  struct Options {
    std::chrono::milliseconds poll{1000};          // read the log this often even without a wake-up
    std::chrono::milliseconds backoff_first{100};  // first wait after a failed connect, doubled each time
    std::chrono::milliseconds backoff_max{5000};
    std::size_t batch = 512;                       // rows per read
  };

  struct Status {
    bool listening = false;        // the wake-up connection is up
    bool caught_up = false;        // listening, and the last read of the log succeeded and found its end
    std::uint64_t delivered = 0;   // the newest log row delivered on the bus
    std::uint64_t connects = 0;    // successful (re)connects of the listener
    std::string last_error;        // "" once things work again
  };

  // Starts after the log's current end: a replica that starts late builds
  // its snapshots from the current state and has nothing to replay; its
  // clients resume from the log's numbers. Fails when the log cannot be read.
  static Result<std::unique_ptr<ChangeRelay>> start(EventBus& bus, std::unique_ptr<ChangeLog> log,
                                                    std::unique_ptr<ChangeSignal> signal, Options options);
  // Stops the thread and gives the bus back its direct delivery.
  ~ChangeRelay();
  ChangeRelay(const ChangeRelay&) = delete;
  ChangeRelay& operator=(const ChangeRelay&) = delete;

  Status status() const;

  struct Impl;

 private:
  explicit ChangeRelay(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> m_impl;
};

}  // namespace skillrt::core
