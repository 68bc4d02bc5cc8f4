// Where one MCP session's server-to-client messages go over HTTP: the GET
// (text/event-stream) streams the client has open for that session. Each
// message goes to exactly one open stream, in turn; with no stream open the
// message is dropped (the spec lets a server send notifications only on a
// stream the client opened, and we keep no replay log). Boost-free: the
// streams are behind the EventStream interface.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace skillrt::net {

// One open GET stream, seen from the hub. Implementations are thread-safe.
class EventStream {
 public:
  virtual ~EventStream() = default;
  // Queues one JSON-RPC message for sending. False when the stream is
  // closed or its queue would overflow (it then closes itself): the hub
  // forgets it and tries the next one.
  virtual bool offer(const std::string& message) = 0;
  // Ends the stream (session deleted, server stopping). Idempotent.
  virtual void finish() = 0;
};

class EventHub {
 public:
  // Sends `message` to one open stream (round robin); false when none took it.
  bool publish(const std::string& message);
  // Adds an open stream; false (and the stream is finished) after shut().
  // With `max_streams` (0 = no limit) already open, the oldest one is
  // finished to make room, so one session cannot pile up sockets.
  bool attach(const std::shared_ptr<EventStream>& stream, std::size_t max_streams = 0);
  // Forgets a stream that ended by itself.
  void detach(const EventStream* stream);
  std::size_t stream_count() const;
  // Finishes every stream; later publish/attach are refused. Once it
  // returns, no publish is still inside a stream's offer().
  void shut();

 private:
  mutable std::mutex m_mutex;
  std::vector<std::weak_ptr<EventStream>> m_streams;
  std::size_t m_next = 0;
  bool m_shut = false;
};

}  // namespace skillrt::net
