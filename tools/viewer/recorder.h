// Recording the viewer's frames: piped to ffmpeg when it is on PATH, else PNG files.
#pragma once

#include <SFML/Graphics/Image.hpp>
#include <cstdio>
#include <string>

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

  /// Appends one frame; it must have the size given at construction. Throws
  /// std::runtime_error when it cannot be written.
  void addFrame(const sf::Image& frame);
  /// Finishes the recording (waits for ffmpeg); returns false when ffmpeg failed.
  bool finish();

  int frameCount() const { return frames_; }
  /// One line saying where the frames go.
  const std::string& description() const { return description_; }

 private:
  std::string output_;
  std::string framesDirectory_;
  unsigned width_;
  unsigned height_;
  std::FILE* pipe_ = nullptr;
  int frames_ = 0;
  std::string description_;
};

}  // namespace scl
