// A sort that a CancelToken can stop (cancel.h), for kernels whose sort of
// millions of items would otherwise run for seconds between two asks
// (kendall.h, tau_ap.h: 1.5e7 indices sort in about 2 s). Without a token,
// or for fewer than `block` items, it is std::sort(). With one, blocks of
// `block` items are sorted with std::sort() and merged pairwise, pass after
// pass (std::merge() into a buffer of the same size), asking the token
// before each block and before each merge: at most `2 * block` items of work
// between two asks. Both orders agree wherever `comp` orders two items
// (items equal under it may come in another order), so callers whose result
// depends only on that order get the same numbers either way.
//
// Pure C++: no R types.
#ifndef IRTOPICS_CANCEL_SORT_H
#define IRTOPICS_CANCEL_SORT_H

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

#include "cancel.h"

namespace irtopics {

// Items of work (sorted or merged) between two asks of the token.
constexpr std::size_t kCancelSortBlock = std::size_t{1} << 16;

template <typename T, typename Comp>
void sort_cancellable(std::vector<T>& v, Comp comp, CancelToken* cancel, std::size_t block = kCancelSortBlock) {
  const std::size_t n = v.size();
  if (cancel == nullptr || n <= block || block == 0) {
    std::sort(v.begin(), v.end(), comp);
    return;
  }
  for (std::size_t s = 0; s < n; s += block) {
    throw_if_cancelled(cancel);
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(s),
              v.begin() + static_cast<std::ptrdiff_t>(std::min(s + block, n)), comp);
  }
  std::vector<T> buf(n);
  T* src = v.data();
  T* dst = buf.data();
  for (std::size_t width = block; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      throw_if_cancelled(cancel);
      const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      std::merge(src + lo, src + mid, src + mid, src + hi, dst + lo, comp);
    }
    std::swap(src, dst);
  }
  if (src != v.data()) std::copy(src, src + n, v.data());
}

}  // namespace irtopics

#endif
