// Recording the viewer's frames: piped to ffmpeg when it is on PATH, else PNG files.
#pragma once

#include <SFML/Graphics/Image.hpp>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace scl {

/// Where `output` (e.g. out.mp4) puts PNG frames without ffmpeg: out_frames/.
std::string framesDirectoryFor(const std::string& output);

/// The full path of an executable named `program` on PATH; empty when there is none.
std::string findOnPath(const std::string& program);

class VideoRecorder {
 public:
  /// Starts ffmpeg (when on PATH and `useFfmpeg`) writing `output` at `fps` frames per
  /// second, else creates the frames directory. Throws std::runtime_error when neither
  /// works.
  VideoRecorder(const std::string& output, unsigned width, unsigned height, int fps,
                bool useFfmpeg = true);
  ~VideoRecorder();
  VideoRecorder(const VideoRecorder&) = delete;
  VideoRecorder& operator=(const VideoRecorder&) = delete;

  /// Appends one frame; it must have the size given at construction. With ffmpeg the
  /// frame is queued for a writer thread (so the display loop does not wait while ffmpeg
  /// encodes; it waits only when kMaxQueued frames are pending). Throws
  /// std::runtime_error when it cannot be written (ffmpeg stopped reading).
  void addFrame(const sf::Image& frame);
  /// Finishes the recording (waits for ffmpeg); returns false when ffmpeg failed.
  bool finish();

  int frameCount() const { return frames_; }
  /// One line saying where the frames go.
  const std::string& description() const { return description_; }

 private:
  /// Frames queued for ffmpeg at most: 8 frames of 800x600 are 15 MB.
  static constexpr size_t kMaxQueued = 8;
  void writeFrames();

  std::string output_;
  std::string framesDirectory_;
  unsigned width_;
  unsigned height_;
  std::FILE* pipe_ = nullptr;
  int frames_ = 0;
  std::string description_;
  /// The frames waiting for the writer thread (RGBA bytes), its state and the first error.
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<std::uint8_t>> queue_;
  bool closing_ = false;
  bool writeFailed_ = false;
  std::thread writer_;
};

}  // namespace scl
