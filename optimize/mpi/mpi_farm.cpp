#include "optimize/mpi/mpi_farm.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>

#include "optimize/evaluator_threads.h"

namespace scl {

namespace {

enum Tag : int {
  kTagJob = 1,
  kTagTask = 2,
  kTagStop = 3,
  kTagReady = 4,
  kTagResult = 5,
  kTagFailed = 6,
  kTagGoodbye = 7,
};

// How long a rank with nothing to do sleeps between polls: short beside an evaluation
// (milliseconds to seconds), long enough that polling costs no core.
constexpr auto kPollInterval = std::chrono::microseconds(200);

using Clock = std::chrono::steady_clock;

// A worker's texts (a failure's reason) are cut to this many bytes, so that its messages
// stay below MPI's eager limit and a send from a worker never waits for rank 0 — which may
// itself be waiting to send that worker a large task.
constexpr size_t kMaxWorkerText = 2000;

std::string cut(std::string text) {
  if (text.size() > kMaxWorkerText) text = text.substr(0, kMaxWorkerText - 3) + "...";
  return text;
}

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("MPI: ") + what + " failed: " + std::string(text, length));
}

// A received message.
struct Message {
  int source = 0;
  int tag = 0;
  std::vector<char> bytes;
};

// The next message from anyone, if one has arrived (never blocks).
std::optional<Message> poll() {
  int flag = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status), "MPI_Iprobe");
  if (!flag) return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  Message message;
  message.source = status.MPI_SOURCE;
  message.tag = status.MPI_TAG;
  message.bytes.resize(static_cast<size_t>(count));
  check(MPI_Recv(message.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
  return message;
}

void send(int destination, int tag, const std::vector<char>& bytes) {
  check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, destination, tag,
                 MPI_COMM_WORLD),
        "MPI_Send");
}

void send(int destination, int tag, const std::string& text) {
  send(destination, tag, std::vector<char>(text.begin(), text.end()));
}

// Bytes of plain values, in the order written (every rank runs the same binary).
class Writer {
 public:
  template <typename T>
  Writer& put(const T& value) {
    const char* p = reinterpret_cast<const char*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
    return *this;
  }
  Writer& putDoubles(const std::vector<double>& values) {
    for (double value : values) put(value);
    return *this;
  }
  Writer& putText(const std::string& text) {
    bytes_.insert(bytes_.end(), text.begin(), text.end());
    return *this;
  }
  const std::vector<char>& bytes() const { return bytes_; }

 private:
  std::vector<char> bytes_;
};

class Reader {
 public:
  explicit Reader(const std::vector<char>& bytes) : bytes_(bytes) {}
  template <typename T>
  T get() {
    if (offset_ + sizeof(T) > bytes_.size()) throw std::runtime_error("MPI: a short message");
    T value;
    std::memcpy(&value, bytes_.data() + offset_, sizeof(T));
    offset_ += sizeof(T);
    return value;
  }
  std::vector<double> restDoubles() {
    std::vector<double> values((bytes_.size() - offset_) / sizeof(double));
    for (double& value : values) value = get<double>();
    return values;
  }
  std::string restText() {
    std::string text(bytes_.begin() + static_cast<std::ptrdiff_t>(offset_), bytes_.end());
    offset_ = bytes_.size();
    return text;
  }

 private:
  const std::vector<char>& bytes_;
  size_t offset_ = 0;
};

std::string rankName(int rank) { return "rank " + std::to_string(rank); }

}  // namespace

// --- the session ------------------------------------------------------------------------

MpiSession::MpiSession() {
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    throw std::runtime_error("the MPI library offers no thread support (MPI_THREAD_FUNNELED)");
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(name, &length);
  host_.assign(name, static_cast<size_t>(length));
  MPI_Comm host;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host) ==
      MPI_SUCCESS) {
    MPI_Comm_size(host, &ranksOnHost_);
    MPI_Comm_free(&host);
  }
  released_.assign(static_cast<size_t>(size_), false);
  if (!released_.empty()) released_[0] = true;
}

MpiSession::~MpiSession() {
  if (rank_ == 0) {
    try {
      releaseWorkers();
    } catch (const std::exception&) {
      // Finalizing anyway: a destructor must not throw, and the job is ending.
    }
  }
  MPI_Finalize();
}

void MpiSession::releaseWorkers(double timeoutSeconds) {
  if (rank_ != 0) return;
  std::vector<bool> waiting(released_.size(), false);
  int pending = 0;
  for (int rank = 1; rank < size_; ++rank) {
    if (released_[static_cast<size_t>(rank)]) continue;
    send(rank, kTagStop, std::vector<char>());
    released_[static_cast<size_t>(rank)] = true;
    waiting[static_cast<size_t>(rank)] = true;
    ++pending;
  }
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeoutSeconds);
  while (pending > 0 && Clock::now() < deadline) {
    std::optional<Message> message = poll();
    if (!message) {
      std::this_thread::sleep_for(kPollInterval);
      continue;
    }
    if (message->tag == kTagGoodbye && waiting[static_cast<size_t>(message->source)]) {
      waiting[static_cast<size_t>(message->source)] = false;
      --pending;
    }
  }
}

// --- rank 0's farm ----------------------------------------------------------------------

MpiFarm::MpiFarm(MpiSession& session, const std::string& job, int localThreads,
                 const std::atomic<bool>* interrupt)
    : session_(session),
      local_(std::make_unique<EvaluatorThreads>(localThreads)),
      threads_(static_cast<size_t>(session.size()), 0) {
  if (session.rank() != 0) throw std::logic_error("MpiFarm: only rank 0 hands out work");
  threads_[0] = local_->threads();
  for (int rank = 1; rank < session.size(); ++rank) send(rank, kTagJob, job);
  int waiting = session.size() - 1;
  std::string failure;
  while (waiting > 0) {
    if (interrupt && interrupt->load())
      throw std::runtime_error("interrupted while the ranks set up the job");
    std::optional<Message> message = poll();
    if (!message) {
      std::this_thread::sleep_for(kPollInterval);
      continue;
    }
    if (message->tag == kTagReady) {
      threads_[static_cast<size_t>(message->source)] =
          std::max(1, Reader(message->bytes).get<int32_t>());
      --waiting;
    } else if (message->tag == kTagFailed) {
      if (failure.empty())
        failure = rankName(message->source) + " of " + std::to_string(session.size()) +
                  " could not set up the job " + Reader(message->bytes).restText();
      --waiting;
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
}

MpiFarm::~MpiFarm() {
  try {
    session_.releaseWorkers();
  } catch (const std::exception&) {
    // The session's destructor tries again; a destructor must not throw.
  }
}

int MpiFarm::evaluators() const {
  int total = 0;
  for (int threads : threads_) total += threads;
  return total;
}

std::string MpiFarm::describe() const {
  const bool uniform = std::all_of(threads_.begin(), threads_.end(),
                                   [&](int threads) { return threads == threads_[0]; });
  const std::string ranks = std::to_string(threads_.size()) + " ranks";
  if (uniform) return ranks + " x " + threadCountText(threads_[0]);
  return ranks + ", " + threadCountText(evaluators()) + " in all";
}

std::vector<FarmResult> MpiFarm::evaluate(const std::vector<std::vector<double>>& points,
                                          const FarmTask& task, const FarmProgress& progress,
                                          const std::atomic<bool>* interrupt) {
  const auto start = Clock::now();
  ++batch_;
  // A tag joins the batch and the index: a late result of an abandoned batch is told apart.
  const auto tagOf = [&](size_t index) { return (batch_ << 32) | static_cast<uint64_t>(index); };
  const size_t n = points.size();
  const int total = static_cast<int>(n);
  std::vector<FarmResult> results(n);
  std::vector<int> running(threads_.size(), 0);  // remote evaluations per rank
  size_t next = 0, received = 0;
  double busy = 0.0, longest = 0.0;
  std::string failure;
  local_->setTask(&task);

  const auto stopping = [&] { return !failure.empty() || (interrupt && interrupt->load()); };
  const auto store = [&](uint64_t tag, FarmResult result, double seconds) {
    if (tag >> 32 != batch_) return false;  // from an abandoned batch
    results[static_cast<size_t>(tag & 0xffffffffu)] = std::move(result);
    busy += seconds;
    longest = std::max(longest, seconds);
    ++received;
    if (progress) progress(static_cast<int>(received), total);
    return true;
  };

  while (received < n) {
    if (!stopping()) {
      // Hand out points to free evaluators: rank 0's threads, then each worker's.
      for (; next < n && local_->inFlight() < threads_[0]; ++next)
        local_->submit(tagOf(next), points[next]);
      for (size_t rank = 1; rank < threads_.size() && next < n; ++rank)
        while (next < n && running[rank] < threads_[rank]) {
          send(static_cast<int>(rank), kTagTask,
               Writer().put(tagOf(next)).putDoubles(points[next]).bytes());
          ++running[rank];
          ++next;
        }
    } else {
      local_->cancelQueued();
      // Remote evaluations are abandoned (their results will be dropped); the local ones
      // use the caller's task and points, so they must end before this returns.
      if (local_->inFlight() == 0) break;
    }
    bool heard = false;
    while (std::optional<Message> message = poll()) {
      heard = true;
      const auto rank = static_cast<size_t>(message->source);
      if (message->tag == kTagResult) {
        Reader reader(message->bytes);
        const auto tag = reader.get<uint64_t>();
        FarmResult result;
        result.value = reader.get<double>();
        const auto seconds = reader.get<double>();
        result.message = reader.restText();
        if (store(tag, std::move(result), seconds) && rank < running.size()) --running[rank];
      } else if (message->tag == kTagFailed && failure.empty()) {
        failure = rankName(message->source) + " failed " + Reader(message->bytes).restText();
      }
    }
    for (EvaluatorThreads::Finished& finished :
         local_->collect(heard ? std::chrono::microseconds(0) : kPollInterval)) {
      if (!finished.error.empty()) {
        if (failure.empty()) failure = "an evaluation failed: " + finished.error;
        continue;
      }
      store(finished.tag, std::move(finished.result), finished.seconds);
    }
  }
  local_->setTask(nullptr);
  statistics_.addBatch(static_cast<int64_t>(received), busy, longest,
                       std::chrono::duration<double>(Clock::now() - start).count(), evaluators());
  if (!failure.empty()) throw std::runtime_error(failure);
  return results;
}

// --- a worker ---------------------------------------------------------------------------

namespace {

// Waits for a message from rank 0 (sleeping between polls); nullopt when interrupted.
std::optional<Message> waitForRankZero(const std::atomic<bool>* interrupt) {
  for (;;) {
    if (interrupt && interrupt->load()) return std::nullopt;
    if (std::optional<Message> message = poll()) return message;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// After a failure: wait for rank 0's stop (it is told of the failure) and say goodbye.
int awaitStop(const std::atomic<bool>* interrupt, int code) {
  for (;;) {
    std::optional<Message> message = waitForRankZero(interrupt);
    if (!message) return kWorkerInterrupted;
    if (message->tag == kTagStop) break;
  }
  send(0, kTagGoodbye, std::vector<char>());
  return code;
}

}  // namespace

int serveMpiWorker(MpiSession& session,
                   const std::function<WorkerJob(const std::string& job)>& setup,
                   const std::atomic<bool>* interrupt) {
  if (session.rank() == 0) throw std::logic_error("serveMpiWorker: rank 0 is no worker");
  std::optional<Message> first;
  do {
    first = waitForRankZero(interrupt);
    if (!first) return kWorkerInterrupted;
  } while (first->tag != kTagJob && first->tag != kTagStop);
  if (first->tag == kTagStop) {  // rank 0 ended before handing out work
    send(0, kTagGoodbye, std::vector<char>());
    return 0;
  }

  WorkerJob job;
  try {
    job = setup(Reader(first->bytes).restText());
  } catch (const std::exception& error) {
    send(0, kTagFailed, cut("on " + session.host() + ": " + error.what()));
    return awaitStop(interrupt, 3);
  }
  EvaluatorThreads threads(std::max(1, job.threads));
  threads.setTask(&job.task);
  send(0, kTagReady, Writer().put(static_cast<int32_t>(threads.threads())).bytes());

  for (;;) {
    if (interrupt && interrupt->load()) return kWorkerInterrupted;
    bool heard = false;
    while (std::optional<Message> message = poll()) {
      heard = true;
      if (message->tag == kTagTask) {
        Reader reader(message->bytes);
        const auto tag = reader.get<uint64_t>();
        threads.submit(tag, reader.restDoubles());
      } else if (message->tag == kTagStop) {
        // Evaluations in progress are finished and dropped; then nothing more is sent.
        threads.cancelQueued();
        while (threads.inFlight() > 0) threads.collect(kPollInterval);
        send(0, kTagGoodbye, std::vector<char>());
        return 0;
      }
    }
    for (EvaluatorThreads::Finished& finished :
         threads.collect(heard ? std::chrono::microseconds(0) : kPollInterval)) {
      if (!finished.error.empty()) {
        send(0, kTagFailed, cut("on " + session.host() + ": " + finished.error));
        continue;
      }
      send(0, kTagResult,
           Writer()
               .put(finished.tag)
               .put(finished.result.value)
               .put(finished.seconds)
               .putText(cut(finished.result.message))
               .bytes());
    }
  }
}

}  // namespace scl
