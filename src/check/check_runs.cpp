// See check_runs.h.
#include "src/check/check_runs.h"

#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "trainproof/core/data_dirs.h"

namespace trainproof {

std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) != 0) throw BadInput(fmt::format("check: command not found: {}", name));
    return name;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path p = fs::path(dir.empty() ? "." : dir) / name;
    if (access(p.c_str(), X_OK) == 0 && !fs::is_directory(p)) return p.string();
  }
  throw BadInput(fmt::format("check: command not found: {} (not in PATH)", name));
}

namespace {

// Where ARGS give torchrun its processes per node: the argument's index and whether the number is
// in it (--nproc-per-node=2) or the next one; nullopt where they do not.
std::optional<std::pair<size_t, bool>> nproc_arg(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i)
    for (const char* flag : {"--nproc-per-node", "--nproc_per_node"}) {
      const std::string f = flag;
      if (args[i] == f && i + 1 < args.size()) return std::make_pair(i + 1, false);
      if (args[i].rfind(f + "=", 0) == 0) return std::make_pair(i, true);
    }
  return std::nullopt;
}

}  // namespace

int nproc_per_node(const std::vector<std::string>& args) {
  const auto at = nproc_arg(args);
  if (!at) return 0;
  const std::string& a = args[at->first];
  try {
    return std::stoi(at->second ? a.substr(a.find('=') + 1) : a);
  } catch (const std::exception&) {
    return 0;  // "auto", "gpu": torchrun's own choice
  }
}

std::vector<std::string> with_nproc_per_node(std::vector<std::string> args, int nproc) {
  const auto at = nproc_arg(args);
  if (!at)
    throw BadInput(
        "check --restart-nproc: the command gives torchrun no --nproc-per-node to change (run it as `torchrun "
        "--nproc-per-node N ...` or `python -m torch.distributed.run --nproc-per-node N ...`)");
  std::string& a = args[at->first];
  a = at->second ? a.substr(0, a.find('=') + 1) + std::to_string(nproc) : std::to_string(nproc);
  return args;
}

int Launcher::finish(pid_t pid, const Run& r) const {
  const fs::path exits = work_ / (r.name + ".exits");
  if (replaying()) {
    std::ifstream in(exits);
    std::string line;
    for (size_t i = 0; i <= finished_[r.name]; ++i)
      if (!std::getline(in, line))
        throw BadInput(
            fmt::format("check --replay: {} holds no exit of start {} of run {} (kept by a check with "
                        "other options, or by an older trainproof)",
                        exits.string(), i + 1, r.name));
    ++finished_[r.name];
    try {
      return std::stoi(line);
    } catch (const std::exception&) {
      throw BadInput(
          fmt::format("check --replay: {}: line {} is no exit code: '{}'", exits.string(), finished_[r.name], line));
    }
  }
  if (const auto code = wait_exit_within(pid, o_.timeout_s)) {
    std::ofstream(exits, std::ios::app) << *code << "\n";
    return *code;
  }
  throw BadInput(fmt::format("check: {} did not finish within {:g} s (--timeout); its output ends:\n{}", r.name,
                             o_.timeout_s, tail_of(r.log)));
}

// The folder a kept check ran its runs in (work.txt, written by every check beside its runs).
fs::path Launcher::replayed_work(const fs::path& dir) {
  std::ifstream in(dir / "work.txt");
  std::string line;
  if (!std::getline(in, line) || line.empty())
    throw BadInput(fmt::format("check --replay: {}: not a folder a check kept (no work.txt; keep one with --keep DIR)",
                               dir.string()));
  return line;
}

void keep_options(const CheckOptions& o, const fs::path& work) {
  std::string reference;
  if (!o.reference.empty()) {
    reference = "reference.trace";
    if (std::error_code ec; !fs::equivalent(o.reference, work / reference, ec))
      fs::copy_file(o.reference, work / reference, fs::copy_options::overwrite_existing);
  }
  const nlohmann::json j = {{"command", o.command},
                            {"kills", o.kills},
                            {"seed", o.seed},
                            {"resume_args", o.resume_args},
                            {"runs", o.runs},
                            {"allow", o.allow},
                            {"restart_nproc", o.restart_nproc},
                            {"probe", o.probe},
                            {"reference", reference},
                            {"expect_lr_spec", o.expect_lr_spec},
                            {"expect_lr", o.expect_lr}};
  std::ofstream(work / "check.json") << j.dump(1) << "\n";
}

CheckOptions with_kept_options(const CheckOptions& o) {
  if (o.replay.empty() || !o.command.empty()) return o;
  const fs::path file = o.replay / "check.json";
  std::ifstream in(file);
  if (!in)
    throw BadInput(
        fmt::format("check --replay {}: no command given, and no {} to take it from (kept by an older "
                    "trainproof: give the command and the options it ran with)",
                    o.replay.string(), file.string()));
  CheckOptions k = o;
  try {
    const auto j = nlohmann::json::parse(in);
    k.command = j.at("command").get<std::vector<std::string>>();
    k.kills = j.at("kills").get<int>();
    k.seed = j.at("seed").get<uint64_t>();
    k.resume_args = j.at("resume_args").get<std::string>();
    k.runs = j.at("runs").get<int>();
    k.allow = j.at("allow").get<std::vector<std::string>>();
    k.restart_nproc = j.at("restart_nproc").get<int>();
    k.probe = j.at("probe").get<bool>();
    const auto reference = j.at("reference").get<std::string>();
    k.reference = reference.empty() ? fs::path() : o.replay / reference;
    k.expect_lr_spec = j.at("expect_lr_spec").get<std::string>();
    k.expect_lr = j.at("expect_lr").get<std::vector<double>>();
  } catch (const std::exception& e) {
    throw BadInput(fmt::format("check --replay: {}: damaged ({})", file.string(), e.what()));
  }
  if (k.command.empty()) throw BadInput(fmt::format("check --replay: {}: damaged (no command)", file.string()));
  return k;
}

std::string tail_of(const fs::path& log, size_t lines) {
  std::ifstream in(log);
  std::vector<std::string> all;
  for (std::string l; std::getline(in, l);) all.push_back(l);
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) out += "    | " + all[i] + "\n";
  return out;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < text.size())
        w += text[++i];
      else
        w += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      w += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(w);
      w.clear();
      in_word = false;
    } else {
      w += c;
      in_word = true;
    }
  }
  if (quote) throw BadInput(fmt::format("--resume-args '{}': an unclosed {} quote", text, quote));
  if (in_word) words.push_back(w);
  return words;
}

fs::path probe_python_dir() {
  if (const char* d = std::getenv("TRAINPROOF_PYTHON_DIR"); d && *d) return d;
  if (const auto source = build_tree_dir("python"); fs::exists(source / "trainproof_boot")) return source;
  return installed_data_dir("python");
}

WriteWatch::WriteWatch(const fs::path& dir) : dir_(dir), fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
  if (fd_ < 0) throw std::runtime_error(fmt::format("inotify on {}: {}", dir.string(), std::strerror(errno)));
  watch(dir, "");
}

void WriteWatch::watch(const fs::path& dir, const std::string& prefix) {
  const int wd = inotify_add_watch(fd_, dir.c_str(), IN_MODIFY | IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO);
  if (wd < 0) {
    if (prefix.empty()) throw std::runtime_error(fmt::format("inotify on {}: {}", dir.string(), std::strerror(errno)));
    return;  // a folder gone before it could be watched: nothing in it to kill a write of
  }
  prefix_[wd] = prefix;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))  // what was made in it before the watch
    if (e.is_directory(ec)) watch(e.path(), prefix + e.path().filename().string() + "/");
}

namespace {

// A symbolic link, or a second name of a file (a hard link).
bool is_link(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && (S_ISLNK(st.st_mode) || (S_ISREG(st.st_mode) && st.st_nlink > 1));
}

}  // namespace

WriteWatch::~WriteWatch() {
  ::close(fd_);
}

std::vector<std::string> WriteWatch::drain(int ms) {
  std::vector<std::string> closed;
  pollfd p{fd_, POLLIN, 0};
  while (poll(&p, 1, ms) > 0) {
    alignas(inotify_event) char buf[4096];
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      const auto folder = prefix_.find(e->wd);
      if (folder == prefix_.end()) continue;  // a watch the kernel dropped (its folder removed)
      const std::string name = folder->second + (e->len ? e->name : "");
      if (e->mask & IN_ISDIR) {
        if (e->mask & (IN_CREATE | IN_MOVED_TO)) watch(dir_ / name, name + "/");
        if (e->mask & IN_MOVED_TO) moved_.push_back(name + "/");
        continue;
      }
      if (e->mask & IN_MOVED_TO) moved_.push_back(name);
      if (e->mask & IN_CLOSE_WRITE) {
        open_.erase(std::remove(open_.begin(), open_.end(), name), open_.end());
        closed.push_back(name);
      }
      // A hard link or a symbolic link made to a file written before (timm's model_best beside
      // last) is created whole: no write in progress that a kill could tear.
      if ((e->mask & IN_CREATE) && !(e->mask & IN_MODIFY) && is_link(dir_ / name)) continue;
      if ((e->mask & (IN_MODIFY | IN_CREATE)) && std::find(open_.begin(), open_.end(), name) == open_.end())
        open_.push_back(name);
    }
    ms = 0;
  }
  return closed;
}

uintmax_t WriteWatch::size_of(const std::string& name) const {
  std::error_code ec;
  const auto n = fs::file_size(dir_ / name, ec);
  return ec ? 0 : n;
}

}  // namespace trainproof
