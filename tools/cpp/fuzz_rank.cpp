// libFuzzer target: the rank correlations (src/kendall.h, src/tau_ap.h) and
// the cancellable sort (src/cancel_sort.h, issue 43). The bytes are pairs
// (x, y): a byte's low 7 bits give a value on a grid of 8 (many ties) or of
// 128 (few), its high bit which. Checks:
//  * tau-b and tau-a equal a direct count over all pairs (n <= 400);
//  * with a token that never stops, the same bits as without one, the
//    workspaces' cancel_block (the sorts' blocks, the asks) 1 to 7 items
//    (the first byte chooses);
//  * a token that stops after k asks (k from the second byte) throws
//    Cancelled or lets the call finish with the same value; the workspace
//    then gives the same value again;
//  * tau_AP is NaN or in [-1, 1].
// Any other outcome aborts (a finding).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <vector>

#include "cancel_sort.h"
#include "kendall.h"
#include "tau_ap.h"

namespace {

struct Countdown : irtopics::CancelToken {
  explicit Countdown(long n) : left(n) {}
  bool stop_requested() override { return --left < 0; }
  long left;
};

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t block = 1 + data[0] % 7;
  const long stop_at = data[1] % 16;
  data += 2;
  size -= 2;
  const std::size_t n = size / 2;
  std::vector<double> x(n), y(n);
  auto value = [](std::uint8_t b) { return (b & 0x80) ? (b & 0x7f) / 128.0 : (b & 0x07) / 8.0; };
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = value(data[2 * i]);
    y[i] = value(data[2 * i + 1]);
  }
  irtopics::KendallWorkspace kw;
  irtopics::TauApWorkspace tw;
  const double tb = kw.tau_b(x.data(), y.data(), n), ta = kw.tau_a(x.data(), y.data(), n);
  const double tap = tw.tau_ap(x.data(), y.data(), n);
  check(std::isnan(tap) || (tap >= -1 - 1e-12 && tap <= 1 + 1e-12));
  if (n <= 400 && n >= 2) {
    double s = 0, tx = 0, ty = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        const double dx = x[i] - x[j], dy = y[i] - y[j];
        if (dx == 0) tx += 1;
        if (dy == 0) ty += 1;
        if (dx != 0 && dy != 0) s += (dx > 0) == (dy > 0) ? 1 : -1;
      }
    const double n0 = 0.5 * double(n) * double(n - 1);
    const double den = std::sqrt((n0 - tx) * (n0 - ty));
    check(den == 0 ? std::isnan(tb) : std::fabs(tb - s / den) <= 1e-12);
    check(std::fabs(ta - s / n0) <= 1e-12);
  }
  // a token that never stops: the same bits, the sorts merging small blocks
  kw.cancel_block = block;
  tw.cancel_block = block;
  Countdown never(1L << 40);
  check(same(kw.tau_b(x.data(), y.data(), n, &never), tb) && same(kw.tau_a(x.data(), y.data(), n, &never), ta));
  check(same(tw.tau_ap(x.data(), y.data(), n, &never), tap));
  std::vector<double> sorted = x, merged = x;
  std::sort(sorted.begin(), sorted.end(), std::greater<double>());
  irtopics::sort_cancellable(merged, std::greater<double>(), &never, block);
  check(sorted == merged);
  std::vector<std::size_t> idx(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = i;
  auto by_xy = [&](std::size_t a, std::size_t b) { return x[a] < x[b] || (x[a] == x[b] && y[a] < y[b]); };
  irtopics::sort_cancellable(idx, by_xy, &never, block);
  for (std::size_t i = 1; i < n; ++i) check(!by_xy(idx[i], idx[i - 1]));
  // stopped after stop_at asks: Cancelled, or finished with the same value
  Countdown stop(stop_at);
  try {
    check(same(tw.tau_ap(x.data(), y.data(), n, &stop), tap));
  } catch (const irtopics::Cancelled&) {
  }
  Countdown stop2(stop_at);
  try {
    check(same(kw.tau_b(x.data(), y.data(), n, &stop2), tb));
  } catch (const irtopics::Cancelled&) {
  }
  check(same(kw.tau_b(x.data(), y.data(), n), tb) && same(tw.tau_ap(x.data(), y.data(), n), tap));
  Countdown sort_stop(stop_at);
  std::vector<double> part = x;
  try {
    irtopics::sort_cancellable(part, std::greater<double>(), &sort_stop, block);
    check(part == sorted);
  } catch (const irtopics::Cancelled&) {
  }
  return 0;
}
