#include "core/events/change_relay.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <iostream>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace skillrt::core {

struct ChangeRelay::Impl {
  EventBus& bus;
  Options options;
  std::unique_ptr<ChangeSignal> signal;  // the relay thread's only

  std::mutex log_mutex;  // the log's connection is not for concurrent use; guards the outbox too
  std::unique_ptr<ChangeLog> log;
  // Events this replica published while the log could not be reached, oldest
  // first: appended (in order, before any newer one) as soon as it can be.
  std::deque<SkillEvent> outbox;

  // Held while rows are read and delivered, so rows reach the bus in order
  // and each exactly once, whichever thread delivers them.
  std::mutex deliver_mutex;
  std::uint64_t delivered = 0;  // also read under status_mutex (copied there)

  mutable std::mutex status_mutex;
  Status current;
  bool stopping = false;
  std::condition_variable stop_requested;

  std::thread thread;

  Impl(EventBus& target, Options opts, std::unique_ptr<ChangeLog> change_log, std::unique_ptr<ChangeSignal> wake)
      : bus(target), options(opts), signal(std::move(wake)), log(std::move(change_log)) {}

  void note(const std::function<void(Status&)>& change) {
    std::lock_guard lock(status_mutex);
    change(current);
  }

  // Reads and delivers every row after `delivered`. Caller holds deliver_mutex.
  bool catch_up_locked();
  // Appends what the outbox holds; false when the log still cannot be reached. Caller holds log_mutex.
  bool flush_outbox_locked();
  bool catch_up() {
    std::lock_guard lock(deliver_mutex);
    return catch_up_locked();
  }
  std::uint64_t forward(SkillEvent event);
  void run();
  bool sleep_for(std::chrono::milliseconds pause);
};

namespace {

// The relay delivering on this thread: a handler that publishes while a row
// is being delivered must not wait for the delivery lock its own thread holds.
thread_local const ChangeRelay::Impl* t_delivering = nullptr;

}  // namespace

bool ChangeRelay::Impl::catch_up_locked() {
  const ChangeRelay::Impl* outer = std::exchange(t_delivering, this);
  bool ok = true;
  std::string error;
  while (true) {
    Result<std::vector<SkillEvent>> rows;
    {
      std::lock_guard lock(log_mutex);
      rows = log->read_after(delivered, options.batch);
    }
    if (!rows) {
      ok = false;
      error = rows.error().message;
      break;
    }
    for (SkillEvent& row : *rows) {
      delivered = row.sequence;
      bus.deliver_sequenced(std::move(row));
    }
    if (rows->size() < options.batch) {
      break;
    }
  }
  t_delivering = outer;
  const std::uint64_t reached = delivered;
  note([&](Status& status) {
    status.delivered = reached;
    status.caught_up = ok && status.listening;
    if (!ok) {
      status.last_error = error;
    }
  });
  return ok;
}

bool ChangeRelay::Impl::flush_outbox_locked() {
  while (!outbox.empty()) {
    auto appended = log->append(outbox.front(), outbox.front().dedupe_key);
    if (!appended) {
      return false;
    }
    outbox.pop_front();
  }
  return true;
}

std::uint64_t ChangeRelay::Impl::forward(SkillEvent event) {
  Result<std::uint64_t> appended = 0;
  bool queued = false;
  std::size_t waiting = 0;
  {
    std::lock_guard lock(log_mutex);
    // Older events still waiting go first: the log keeps this replica's order.
    if (flush_outbox_locked()) {
      appended = log->append(event, event.dedupe_key);
    }
    if (!outbox.empty() || !appended) {
      event.unlogged = true;
      outbox.push_back(event);
      queued = true;
      waiting = outbox.size();
    }
  }
  if (queued) {
    // The write itself is done. This replica's caches must still see it; the
    // other replicas hear of it when the log is back (and of file changes
    // from their sweep meanwhile).
    if (waiting == 1) {
      std::cerr << "skillrt serve: warning: the shared change log cannot be reached"
                << (appended ? std::string() : " (" + appended.error().message + ")")
                << "; changes are announced here now and to the other replicas once it is back\n";
    }
    bus.deliver_sequenced(std::move(event));
    return 0;
  }
  if (*appended == 0) {
    return 0;  // another replica logged this very observation already
  }
  if (t_delivering == this) {
    return *appended;  // the delivery loop on this thread reads it next
  }
  std::lock_guard lock(deliver_mutex);
  catch_up_locked();
  return *appended;
}

bool ChangeRelay::Impl::sleep_for(std::chrono::milliseconds pause) {
  std::unique_lock lock(status_mutex);
  return !stop_requested.wait_for(lock, pause, [&] { return stopping; });
}

void ChangeRelay::Impl::run() {
  std::chrono::milliseconds backoff = options.backoff_first;
  bool listening = false;
  while (true) {
    {
      std::lock_guard lock(status_mutex);
      if (stopping) {
        return;
      }
    }
    if (!listening) {
      if (auto connected = signal->connect(); !connected) {
        note([&](Status& status) {
          status.listening = false;
          status.caught_up = false;
          status.last_error = connected.error().message;
        });
        if (!sleep_for(backoff)) {
          return;
        }
        backoff = std::min(backoff * 2, options.backoff_max);
        continue;
      }
      listening = true;
      backoff = options.backoff_first;
      note([](Status& status) {
        status.listening = true;
        status.last_error.clear();
        ++status.connects;
      });
      // Whatever was appended while nobody listened sent its wake-up to nobody.
      catch_up();
    }
    {
      std::lock_guard lock(log_mutex);
      flush_outbox_locked();
    }
    auto woken = signal->wait(options.poll);
    if (!woken) {
      listening = false;
      note([&](Status& status) {
        status.listening = false;
        status.caught_up = false;
        status.last_error = woken.error().message;
      });
      continue;
    }
    catch_up();
  }
}

Result<std::unique_ptr<ChangeRelay>> ChangeRelay::start(EventBus& bus, std::unique_ptr<ChangeLog> log,
                                                        std::unique_ptr<ChangeSignal> signal, Options options) {
  if (!log || !signal) {
    return fail(ErrorCode::invalid_argument, "the change relay needs a change log and its wake-up");
  }
  auto tail = log->last_sequence();
  if (!tail) {
    return fail(tail.error().code, "cannot read the change log: " + tail.error().message);
  }
  auto impl = std::make_shared<Impl>(bus, options, std::move(log), std::move(signal));
  impl->delivered = *tail;
  impl->current.delivered = *tail;
  // A publish in flight when the relay stops keeps the Impl alive through its
  // copy of the forwarder; ~ChangeRelay removes the forwarder, ending the cycle.
  bus.set_forwarder([impl](SkillEvent event) { return impl->forward(std::move(event)); });
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->run(); });
  return std::unique_ptr<ChangeRelay>(new ChangeRelay(std::move(impl)));
}

ChangeRelay::ChangeRelay(std::shared_ptr<Impl> impl) : m_impl(std::move(impl)) {}

ChangeRelay::~ChangeRelay() {
  m_impl->bus.set_forwarder(nullptr);
  {
    std::lock_guard lock(m_impl->status_mutex);
    m_impl->stopping = true;
  }
  m_impl->stop_requested.notify_all();
  m_impl->signal->interrupt();
  if (m_impl->thread.joinable()) {
    m_impl->thread.join();
  }
}

ChangeRelay::Status ChangeRelay::status() const {
  std::lock_guard lock(m_impl->status_mutex);
  return m_impl->current;
}

}  // namespace skillrt::core
