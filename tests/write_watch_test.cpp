// check's write watch (src/check/check_runs.h): where a kill lands mid-write. A file opened and
// written is being written until it is closed; a hard link or a symbolic link to a file written
// before is made whole, and a kill beside it tears nothing (timm's saver links model_best to
// last: once taken for an open write, it put a kill "during" a write that never happened).
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "src/check/check_runs.h"
#include "trainproof/core/temp_dir.h"

namespace trainproof {
namespace {

TEST(WriteWatchTest, AFileOpenForWritingIsBeingWrittenALinkIsNot) {
  const TempDir dir("watch");
  const fs::path last = dir.path() / "last.pth";
  WriteWatch watch(dir.path());
  const int fd = ::open(last.c_str(), O_WRONLY | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "abc", 3), 3);
  watch.drain(50);
  EXPECT_EQ(watch.writing(), "last.pth");  // the control: a write in progress is seen
  ::close(fd);
  watch.drain(50);
  EXPECT_EQ(watch.writing(), "");
  fs::create_hard_link(last, dir.path() / "model_best.pth");
  fs::create_symlink(last, dir.path() / "latest.pth");
  watch.drain(50);
  EXPECT_EQ(watch.writing(), "") << "a link taken for a write";
}

}  // namespace
}  // namespace trainproof
