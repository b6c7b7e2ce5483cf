#include "tools/viewer/recorder.h"

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace scl {

namespace {

// Single-quoted for /bin/sh.
std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string framesDirectoryFor(const std::string& output) {
  std::filesystem::path path(output);
  return (path.parent_path() / (path.stem().string() + "_frames")).string();
}

std::string findOnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::istringstream entries(path);
  std::string directory;
  while (std::getline(entries, directory, ':')) {
    if (directory.empty()) continue;
    std::string candidate = directory;
    candidate += '/';
    candidate += program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

VideoRecorder::VideoRecorder(const std::string& output, unsigned width, unsigned height, int fps,
                             bool useFfmpeg)
    : output_(output), width_(width), height_(height) {
  std::string ffmpeg = useFfmpeg ? findOnPath("ffmpeg") : std::string();
  if (!ffmpeg.empty()) {
    std::ostringstream command;
    command << shellQuote(ffmpeg)
            << " -loglevel error -y -f rawvideo -pixel_format rgba -video_size " << width << "x"
            << height << " -framerate " << fps << " -i - -preset veryfast -pix_fmt yuv420p "
            << shellQuote(output);
    // A dying ffmpeg must surface as a write error, not kill the viewer with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    pipe_ = ::popen(command.str().c_str(), "w");
    if (pipe_) {
      description_ = "recording " + output + " at " + std::to_string(fps) +
                     " fps (simulation time) via ffmpeg";
      writer_ = std::thread([this] { writeFrames(); });
      return;
    }
  }
  framesDirectory_ = framesDirectoryFor(output);
  std::error_code error;
  std::filesystem::create_directories(framesDirectory_, error);
  if (error) throw std::runtime_error("cannot create " + framesDirectory_ + ": " + error.message());
  description_ = (ffmpeg.empty() && useFfmpeg ? "ffmpeg not found on PATH: " : "") +
                 std::string("writing PNG frames to ") + framesDirectory_ + "/ at " +
                 std::to_string(fps) + " fps (simulation time)";
}

VideoRecorder::~VideoRecorder() { finish(); }

void VideoRecorder::addFrame(const sf::Image& frame) {
  if (frame.getSize().x != width_ || frame.getSize().y != height_)
    throw std::runtime_error("recording: frame size changed");
  ++frames_;
  if (pipe_) {
    const std::size_t bytes = static_cast<std::size_t>(width_) * height_ * 4;
    std::vector<std::uint8_t> pixels(frame.getPixelsPtr(), frame.getPixelsPtr() + bytes);
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return queue_.size() < kMaxQueued || writeFailed_; });
    if (writeFailed_) throw std::runtime_error("recording: ffmpeg stopped accepting frames");
    queue_.push_back(std::move(pixels));
    changed_.notify_all();
    return;
  }
  char name[32];
  std::snprintf(name, sizeof name, "frame_%05d.png", frames_);
  std::string path = (std::filesystem::path(framesDirectory_) / name).string();
  if (!frame.saveToFile(path)) throw std::runtime_error("recording: cannot write " + path);
}

void VideoRecorder::writeFrames() {
  for (;;) {
    std::vector<std::uint8_t> pixels;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return !queue_.empty() || closing_; });
      if (queue_.empty()) return;  // closing, everything written
      pixels = std::move(queue_.front());
      queue_.pop_front();
      changed_.notify_all();
    }
    if (std::fwrite(pixels.data(), 1, pixels.size(), pipe_) != pixels.size()) {
      const std::scoped_lock lock(mutex_);
      writeFailed_ = true;
      queue_.clear();
      changed_.notify_all();
      return;
    }
  }
}

bool VideoRecorder::finish() {
  if (!pipe_) return true;
  if (writer_.joinable()) {
    {
      const std::scoped_lock lock(mutex_);
      closing_ = true;
      changed_.notify_all();
    }
    writer_.join();
  }
  int status = ::pclose(pipe_);
  pipe_ = nullptr;
  return status == 0 && !writeFailed_;
}

}  // namespace scl
