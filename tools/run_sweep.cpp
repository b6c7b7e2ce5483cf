#include "tools/run_sweep.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "base/format.h"
#include "base/thread_pool.h"
#include "runtime/runner.h"
#include "runtime/simulation.h"

namespace scl {

namespace {

constexpr size_t kMaxSeeds = 10000;

SweepStart runStart(const Program& program, const OutcomeLines& outcomes, const SweepDef& def,
                    std::uint64_t seed) {
  SweepStart start;
  start.seed = seed;
  start.ran = true;
  RunSessionDef session = def.session;
  session.simulation.jointOffsets = perturbationOffsets(def.perturbDeg, seed);
  std::optional<RunSession> run;
  try {
    run.emplace(program, session);
    run->run([&](const StepView&) {
      if (def.interrupt && run->steps() % 256 == 0 && def.interrupt->load())
        run->stop("interrupted");
    });
    start.endReason = run->endReason();
    // Stopped part way by Ctrl-C: not a start that ran.
    if (def.interrupt && def.interrupt->load() && start.endReason == "interrupted") return {};
  } catch (const SimulationDiverged& error) {
    start.diverged = true;
    start.endReason = error.what();
  }
  if (run) {
    start.summary = run->summary();
    start.endPhase = run->runner().report().phase;
    start.endPhaseName = run->program().phases[static_cast<size_t>(start.endPhase)].name;
    start.phaseCount = static_cast<int>(run->program().phases.size());
  }
  for (const OutcomeClaim& claim : outcomes.claims) {
    std::optional<bool> held = outcomeHolds(claim, start.summary);
    if (held && start.diverged) held = false;
    start.held.push_back(held);
    if (held && !*held) start.meetsAll = false;
  }
  if (start.diverged) start.meetsAll = false;
  return start;
}

bool hasRunClaims(const OutcomeLines& outcomes) {
  return std::any_of(outcomes.claims.begin(), outcomes.claims.end(), [](const OutcomeClaim& c) {
    return c.kind != OutcomeKind::Mark && c.kind != OutcomeKind::PerturbedQuota;
  });
}

std::string yesNo(bool value) { return value ? "yes" : "no"; }

// "fell at 1.23 s" / "no"; "1.23 s" / "never".
std::string fellText(const MotionSummary& summary) {
  return summary.fell ? formatFixed(*summary.fell, 2) + " s" : "no";
}
std::string riseText(const MotionSummary& summary) {
  return summary.riseTime ? formatFixed(*summary.riseTime, 2) + " s" : "-";
}

// Seeds of the starts for which `failed(start)`.
template <typename Failed>
std::vector<std::uint64_t> seedsWhere(const SweepResult& result, Failed failed) {
  std::vector<std::uint64_t> seeds;
  for (const SweepStart& start : result.starts)
    if (start.ran && failed(start)) seeds.push_back(start.seed);
  return seeds;
}

std::string verdict(const OutcomeLines& outcomes, const SweepResult& result) {
  const int ran = result.ran();
  if (!hasRunClaims(outcomes)) return "nothing to check: no outcome line is about a run";
  const std::string met = std::to_string(result.meetingAll()) + " of " + std::to_string(ran) +
                          " starts meet every outcome line";
  if (const OutcomeClaim* quota = outcomes.quota())
    return met + "; '" + quota->text + "' asks for " + std::to_string(quotaFor(*quota, ran)) +
           ": " + (result.claimsHold(outcomes) ? "holds" : "FAILS");
  return met + "; without an 'N of 20 perturbed starts' line every start must: " +
         (result.claimsHold(outcomes) ? "holds" : "FAILS");
}

}  // namespace

int SweepResult::ran() const {
  return static_cast<int>(
      std::count_if(starts.begin(), starts.end(), [](const SweepStart& s) { return s.ran; }));
}
int SweepResult::standing() const {
  return static_cast<int>(std::count_if(starts.begin(), starts.end(), [](const SweepStart& s) {
    return s.ran && !s.diverged && s.summary.standing;
  }));
}
int SweepResult::fell() const {
  return static_cast<int>(std::count_if(starts.begin(), starts.end(), [](const SweepStart& s) {
    return s.ran && (s.diverged || s.summary.fell.has_value());
  }));
}
int SweepResult::meetingAll() const {
  return static_cast<int>(std::count_if(starts.begin(), starts.end(),
                                        [](const SweepStart& s) { return s.ran && s.meetsAll; }));
}

bool SweepResult::claimsHold(const OutcomeLines& outcomes) const {
  if (!hasRunClaims(outcomes)) return true;
  const int needed = outcomes.quota() ? quotaFor(*outcomes.quota(), ran()) : ran();
  return meetingAll() >= needed;
}

SweepResult runSweep(const Program& program, const OutcomeLines& outcomes, const SweepDef& def) {
  SweepResult result;
  result.starts.resize(def.seeds.size());
  const auto begin = std::chrono::steady_clock::now();
  ThreadPool pool(std::max(1, std::min<int>(def.threads, static_cast<int>(def.seeds.size()))));
  result.threads = pool.threadCount();
  pool.parallelFor(def.seeds.size(), [&](size_t i) {
    if (def.interrupt && def.interrupt->load()) return;
    result.starts[i] = runStart(program, outcomes, def, def.seeds[i]);
  });
  result.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  result.interrupted = def.interrupt && def.interrupt->load();
  return result;
}

std::optional<std::vector<std::uint64_t>> parseSeedList(const std::string& text) {
  std::vector<std::uint64_t> seeds;
  const auto number = [](std::string_view digits) -> std::optional<std::uint64_t> {
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    std::uint64_t value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return value;
  };
  if (text.find_first_of(",-") == std::string::npos) {  // N: seeds 1..N
    const std::optional<std::uint64_t> count = number(text);
    if (!count || *count < 1 || *count > kMaxSeeds) return std::nullopt;
    for (std::uint64_t seed = 1; seed <= *count; ++seed) seeds.push_back(seed);
    return seeds;
  }
  std::istringstream parts(text);
  for (std::string part; std::getline(parts, part, ',');) {
    const size_t dash = part.find('-');
    const std::optional<std::uint64_t> first = number(part.substr(0, dash));
    const std::optional<std::uint64_t> last =
        dash == std::string::npos ? first : number(part.substr(dash + 1));
    if (!first || !last || *last < *first || *last - *first >= kMaxSeeds) return std::nullopt;
    for (std::uint64_t seed = *first; seed <= *last; ++seed) {
      if (std::find(seeds.begin(), seeds.end(), seed) != seeds.end()) return std::nullopt;
      seeds.push_back(seed);
      if (seeds.size() > kMaxSeeds) return std::nullopt;
    }
  }
  if (seeds.empty() || text.back() == ',') return std::nullopt;
  return seeds;
}

std::string seedRanges(const std::vector<std::uint64_t>& seeds) {
  std::string text;
  for (size_t i = 0; i < seeds.size();) {
    size_t j = i;
    while (j + 1 < seeds.size() && seeds[j + 1] == seeds[j] + 1) ++j;
    if (!text.empty()) text += ", ";
    text += std::to_string(seeds[i]);
    if (j > i) text += "-" + std::to_string(seeds[j]);
    i = j + 1;
  }
  return text;
}

std::string sweepText(const std::string& script, const SweepDef& def, const OutcomeLines& outcomes,
                      const SweepResult& result) {
  std::ostringstream out;
  out << "sweep of " << script << ": " << def.seeds.size() << " starts perturbed by ±"
      << formatNumber(def.perturbDeg) << "° (seeds " << seedRanges(def.seeds) << ")\n";
  out << "seed  standing  fell      rise      distance  airborne  ended in\n";
  for (const SweepStart& start : result.starts) {
    if (!start.ran) continue;
    const MotionSummary& s = start.summary;
    out << padded(std::to_string(start.seed), 4, true) << "  " << padded(yesNo(s.standing), 8)
        << "  " << padded(start.diverged ? "diverged" : fellText(s), 8) << "  "
        << padded(riseText(s), 8) << "  " << padded(formatFixed(s.distance, 2) + " m", 8) << "  "
        << padded(formatFixed(s.longestAirborne, 2) + " s", 8) << "  "
        << "'" << start.endPhaseName << "' (" << start.endPhase + 1 << " of " << start.phaseCount
        << "): " << start.endReason << (start.meetsAll ? "" : "  *") << "\n";
  }
  const int ran = result.ran();
  out << "standing at end " << result.standing() << " of " << ran << "; fell " << result.fell()
      << " of " << ran;
  const std::vector<std::uint64_t> fell = seedsWhere(
      result, [](const SweepStart& s) { return s.diverged || s.summary.fell.has_value(); });
  if (!fell.empty()) out << " (seeds " << seedRanges(fell) << ")";
  out << "\n";
  if (!outcomes.claims.empty()) {
    out << "outcome lines:\n";
    for (size_t c = 0; c < outcomes.claims.size(); ++c) {
      const OutcomeClaim& claim = outcomes.claims[c];
      out << "  " << padded(claim.text, 28) << "  ";
      if (claim.kind == OutcomeKind::Mark) {
        out << "not checked per start (the mark runs its own trials: scl bench)\n";
        continue;
      }
      if (claim.kind == OutcomeKind::PerturbedQuota) {
        out << "needs " << quotaFor(claim, ran) << " of " << ran << "\n";
        continue;
      }
      const std::vector<std::uint64_t> failed =
          seedsWhere(result, [&](const SweepStart& s) { return s.held[c] && !*s.held[c]; });
      out << "holds for " << (ran - static_cast<int>(failed.size())) << " of " << ran;
      if (!failed.empty()) out << "; fails for seeds " << seedRanges(failed);
      out << "\n";
    }
  }
  out << verdict(outcomes, result) << "\n";
  if (result.interrupted) out << "interrupted: " << ran << " of " << def.seeds.size() << " ran\n";
  out << "wall time " << formatFixed(result.wallSeconds, 1) << " s on " << result.threads
      << (result.threads == 1 ? " thread" : " threads") << "\n";
  return out.str();
}

nlohmann::ordered_json sweepJson(const std::string& script, const SweepDef& def,
                                 const OutcomeLines& outcomes, const SweepResult& result) {
  nlohmann::ordered_json starts = nlohmann::ordered_json::array();
  for (const SweepStart& start : result.starts) {
    if (!start.ran) continue;
    const MotionSummary& s = start.summary;
    nlohmann::ordered_json failed = nlohmann::ordered_json::array();
    for (size_t c = 0; c < outcomes.claims.size(); ++c)
      if (start.held[c] && !*start.held[c]) failed.push_back(outcomes.claims[c].text);
    starts.push_back({{"seed", start.seed},
                      {"standing", s.standing},
                      {"fell", s.fell ? nlohmann::ordered_json(*s.fell) : nullptr},
                      {"rise_time", s.riseTime ? nlohmann::ordered_json(*s.riseTime) : nullptr},
                      {"distance", s.distance},
                      {"longest_airborne", s.longestAirborne},
                      {"phase_changes", s.phaseChanges},
                      {"end_phase", start.endPhaseName},
                      {"end_phase_index", start.endPhase},
                      {"end_reason", start.endReason},
                      {"diverged", start.diverged},
                      {"meets_outcomes", start.meetsAll},
                      {"failed_outcomes", failed}});
  }
  nlohmann::ordered_json lines = nlohmann::ordered_json::array();
  for (size_t c = 0; c < outcomes.claims.size(); ++c) {
    const OutcomeClaim& claim = outcomes.claims[c];
    nlohmann::ordered_json line = {{"outcome", claim.text}, {"line", claim.line}};
    if (claim.kind == OutcomeKind::PerturbedQuota) {
      line["needs"] = quotaFor(claim, result.ran());
    } else if (claim.kind != OutcomeKind::Mark) {
      nlohmann::ordered_json failed = nlohmann::ordered_json::array();
      for (const std::uint64_t seed :
           seedsWhere(result, [&](const SweepStart& s) { return s.held[c] && !*s.held[c]; }))
        failed.push_back(seed);
      line["failed_seeds"] = failed;
    }
    lines.push_back(line);
  }
  return {{"script", script},
          {"perturb_deg", def.perturbDeg},
          {"seeds", def.seeds},
          {"threads", result.threads},
          {"starts", starts},
          {"ran", result.ran()},
          {"standing", result.standing()},
          {"fell", result.fell()},
          {"meeting_outcomes", result.meetingAll()},
          {"outcomes", lines},
          {"outcomes_hold", result.claimsHold(outcomes)},
          {"interrupted", result.interrupted},
          {"wall_time", result.wallSeconds}};
}

}  // namespace scl
