// Where one MCP session's server-to-client messages go over HTTP: the GET
// (text/event-stream) streams the client has open for that session. Each
// message goes to exactly one open stream, in turn. Every message gets an
// SSE event id and is kept in a short replay log (the last 64 messages, at
// most 64 KiB), so a client that reconnects with Last-Event-ID gets what it
// missed, including what was published while no stream was open (2025
// revisions, "Resumability and Redelivery"). Boost-free: the streams are
// behind the EventStream interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::net {

// One open GET stream, seen from the hub. Implementations are thread-safe.
class EventStream {
 public:
  virtual ~EventStream() = default;
  // Queues one JSON-RPC message for sending, with its SSE event id. False
  // when the stream is closed or its queue would overflow (it then closes
  // itself): the hub forgets it and tries the next one.
  virtual bool offer(const std::string& message, const std::string& event_id) = 0;
  // Ends the stream (session deleted, server stopping). Idempotent.
  virtual void finish() = 0;
};

class EventHub {
 public:
  static constexpr std::size_t k_replay_messages = 64;
  static constexpr std::size_t k_replay_bytes = 64 * 1024;

  EventHub();

  // Numbers `message`, keeps it for replay and sends it to one open stream
  // (round robin); false when none took it (it is still kept).
  bool publish(const std::string& message);
  // Adds an open stream; false (and the stream is finished) after shut().
  // With `max_streams` (0 = no limit) already open, the oldest one is
  // finished to make room, so one session cannot pile up sockets.
  bool attach(const std::shared_ptr<EventStream>& stream, std::size_t max_streams = 0);
  // attach() for a client that reconnects with `last_event_id`: the kept
  // messages published after that one are offered to the new stream first,
  // in order. `replayed` is false when the id is not one this hub can
  // resume from (another replica's or an earlier process's hub, or older
  // than what it keeps): the caller then has the session send what a client
  // needs to catch up.
  struct Resumed {
    bool attached = false;
    bool replayed = false;
  };
  Resumed attach_after(const std::shared_ptr<EventStream>& stream, std::string_view last_event_id,
                       std::size_t max_streams = 0);
  // Forgets a stream that ended by itself.
  void detach(const EventStream* stream);
  std::size_t stream_count() const;
  // Finishes every stream; later publish/attach are refused. Once it
  // returns, no publish is still inside a stream's offer().
  void shut();

 private:
  struct Kept {
    std::uint64_t number;
    std::string message;
  };
  // attach() and attach_after() share it; false after shut().
  bool attach_locked(const std::shared_ptr<EventStream>& stream, std::size_t max_streams,
                     std::vector<std::shared_ptr<EventStream>>& displaced);
  std::string event_id(std::uint64_t number) const;

  mutable std::mutex m_mutex;
  std::vector<std::weak_ptr<EventStream>> m_streams;
  std::size_t m_next = 0;
  bool m_shut = false;
  // Event ids are "<epoch>-<number>": the epoch, random per hub, tells this
  // hub's ids from those of a hub on another replica or in an earlier process.
  const std::string m_epoch;
  std::uint64_t m_last_number = 0;
  std::deque<Kept> m_kept;
  std::size_t m_kept_bytes = 0;
};

}  // namespace skillrt::net
