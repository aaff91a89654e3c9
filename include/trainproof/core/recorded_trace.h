// The traces users' training commands record (python/trainproof, and the C++ recorder below):
// an append-only file, one checksummed record per line, that a SIGKILL can tear only at its
// end. `trainproof check` reads them into the Trace model to compare runs and goldens.
//
//   TPTRACE 1
//   {"kind":"log","step":3,"values":{"loss":0.41,"lr":0.001}}\t<FNV-1a 64, 16 hex digits>
//   {"kind":"param","name":"fc.weight","dtype":"float32","shape":[2,3],"bits":"<hex>"}\t<...>
// The probe (python/trainproof/probe/) adds "start", "probe", "save", "load" and "final"
// records to the same file: what a script that imports nothing from trainproof did.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "trainproof/core/trace.h"

namespace trainproof {

// What the probe saw at one optimizer step (before the update) of one start of the command.
struct ProbeStep {
  int start = 0;                               // 1: the first start; 2: the first restart, ...
  int64_t seq = 0;                             // the optimizer step's number within its start, from 1
  std::map<std::string, double> values;        // loss, lr, lr.1, ..., grad_norm
  std::map<std::string, std::string> digests;  // params, optimizer, scheduler, rng.*, batch, scaler
  std::optional<int64_t> opt_step;             // the optimizer's own step counter, where it keeps one
  std::string where;                           // file:line of the script's optimizer step
  int launch = 0;                              // check's start of the command it came from (1, 2, ...; 0: not said)
  // Layout-free sums (params, optimizer, batch), this process's part: the ranks' parts add up
  // (mod 2^64) to the same number however they split the tensors and the batch. Only where check
  // asked for them (a resume at another world size).
  std::map<std::string, uint64_t> sums;
  std::vector<uint64_t> samples;  // each of the step's samples' own number (this process's), where asked
};

// A torch.save or torch.load the probe saw.
struct ProbeFileOp {
  std::string kind;  // "save" or "load"
  int start = 0;
  int64_t seq = 0;                // optimizer steps of its start before it
  std::string path;               // absolute; empty when not a path (a buffer)
  bool existed = false;           // save: the file was there already (the save overwrites it)
  std::vector<std::string> keys;  // save: the saved dict's keys
  std::string where;
  bool checkpoint = false;                // save: a dict that is not a bare state_dict
  std::vector<std::string> holds, needs;  // save: pieces of training state it holds / the run has
  std::string weights_only;               // load: "true", "false" or "default" (not given)
  bool dcp = false;                       // a DCP checkpoint (torch.distributed.checkpoint): `path` is its folder
  bool complete = false;                  // a DCP load: the folder held `.metadata` (DCP writes it last) when loaded
};

// Something else the probe saw that check may judge as a finding (probe_findings.h), with
// its data as text (numbers as JSON writes them).
struct ProbeFact {
  std::string fact;  // "cross-entropy-input", "param-groups", ...
  int start = 0;
  int64_t seq = 0;  // optimizer steps of its start before it
  std::string where;
  std::map<std::string, std::string> data;
};

// One ATen op a rerun with op-level digests saw (TRAINPROOF_OP_DIGESTS, python/trainproof/op_digests.py).
struct ProbeOp {
  int64_t seq = 0, index = 0;  // optimizer steps done before it; its number in the run
  std::string op, in, out;     // "aten::mm"; digests of its inputs, and of its outputs and inputs after
  std::string where;
};

// What a recorded trace holds. A step logged twice (a restarted run re-does steps after its
// last checkpoint) keeps its last record.
struct RecordedTrace {
  std::map<int64_t, std::map<std::string, double>> steps;  // step -> scalar -> value
  std::map<std::string, std::vector<float>> params;        // final parameters, flattened
  std::vector<ProbeStep> probe;                            // file order
  std::vector<ProbeFileOp> file_ops;                       // file order
  std::vector<ProbeFact> facts;                            // file order
  std::vector<ProbeOp> ops;                                // a rerun with op-level digests only
  std::map<std::string, std::string> final_digests;        // the probe's, at the last exit
  int starts = 0;                                          // starts the probe saw
  std::string process;  // the process that wrote it: "" the command's own, "rank1", "proc2" (the probe's identity)
  std::map<std::string, std::string> env;  // the process's environment, as its first start recorded it (torch, ...)
  bool steps_from_probe = false;           // no "log" record: steps are the probe's
  size_t records = 0;                      // complete records read
  bool torn_tail = false;                  // the last record was torn and ignored
};

// Reads the file. A trace with probe records and no "log" record gets its steps from the
// probe: step = the optimizer's own counter + 1 where it keeps one, else the number within its
// start (check aligns restarts by content where that matters). BadInput naming the file for a missing file, a missing
// header, or a damaged record before the last; a torn last record is ignored (torn_tail).
RecordedTrace read_recorded_trace(const std::filesystem::path& path);

// Every process's trace of one run, by the process's identity: `path` itself (the command's own
// process, or rank 0: key "" or "rank0", as its start records say) and each `<path>.<identity>`
// beside it that another process wrote (torchrun's other ranks, multiprocessing's workers).
// A run none of whose processes wrote a trace is an empty map.
std::map<std::string, RecordedTrace> read_process_traces(const std::filesystem::path& path);

// The steps logged by complete records that start at or after byte `offset`, in file order:
// where a restarted run began (offset: the end of the complete records when it started).
std::vector<int64_t> logged_steps_from(const std::filesystem::path& path, size_t offset);
// The end of the complete records (after the last newline): where a restart will append.
size_t complete_size(const std::filesystem::path& path);

// The distinct steps a growing trace has recorded so far, as read_recorded_trace counts them
// (its logged steps, else its probe's), reading only the records appended since the last call:
// check polls it every few milliseconds while a run trains, and a trace grows to megabytes. A
// record still being written is read once it is whole; a trace that shrank is read again.
class StepTally {
 public:
  explicit StepTally(std::filesystem::path path) : path_(std::move(path)) {}
  size_t now();
  // The bytes read so far: the end of the last whole record.
  uintmax_t read_up_to() const { return offset_; }

 private:
  size_t count() const { return logged_.empty() ? probed_.size() : logged_.size(); }
  std::filesystem::path path_;
  uintmax_t offset_ = 0;
  std::set<int64_t> logged_, probed_;
};

// As series: "step" (int64), one float64 series per scalar (NaN where a step lacks it), and
// "param.<name>" (float32) per parameter; every tolerance exact.
Trace to_trace(const RecordedTrace& r);

// Where two recorded traces first differ, as compare_traces (compare.h) finds it, exactly: the
// step (for per-step series) or the parameter, and the values; "" where they are bitwise equal.
std::string first_difference(const RecordedTrace& a, const RecordedTrace& b);

// The C++ recorder, the same format as the Python one: $TRAINPROOF_TRACE, or a no-op without it.
class Recorder {
 public:
  Recorder();  // $TRAINPROOF_TRACE
  explicit Recorder(const std::filesystem::path& path);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  bool active() const { return fd_ >= 0; }
  void log(int64_t step, const std::map<std::string, double>& scalars);
  // One parameter's values (float32, flattened) with its shape.
  void param(const std::string& name, const std::vector<float>& values, const std::vector<int64_t>& shape);
  void close();

 private:
  void open(const std::filesystem::path& path);
  void append(const std::string& json);
  int fd_ = -1;
  std::filesystem::path path_;
};

}  // namespace trainproof
