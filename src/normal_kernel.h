// Sums of the Gaussian kernel estimate at its own scores (the margin family
// "normal_kernel", R/calibration-kernels.R, nk_loglik_df()): for each score
// x_i the sum over j of phi((x_i - x_j) / h). The matrix is symmetric (phi
// is even, and x_j - x_i is exactly -(x_i - x_j)), so each pair is
// evaluated once, and each row is accumulated in long double in column
// order, as R's rowSums() and rowMeans() add, so that the sums are those of
// rowSums(dnorm(outer(x, x, "-") / h)) to the bit. `phi` is the density the
// R code used (R's dnorm(), passed in by the glue). Half the density
// evaluations of the matrix, and memory linear in n.
//
// Pure C++: no R types.
#ifndef IRTOPICS_NORMAL_KERNEL_H
#define IRTOPICS_NORMAL_KERNEL_H

#include <cstddef>
#include <vector>

#include "cancel.h"

namespace irtopics {
namespace normal_kernel {

// sums[i] = sum_j phi((x_i - x_j) / h) and means[i] = sums[i] / n, each
// rounded once from its long double total.
template <typename Phi>
void self_sums(const double* x, std::size_t n, double h, Phi phi, double* sums, double* means,
               CancelToken* cancel = nullptr) {
  std::vector<long double> acc(n, 0.0L);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 64 == 0) throw_if_cancelled(cancel);
    // row i has received columns 0..i-1 (from the rows before it)
    acc[i] += phi((x[i] - x[i]) / h);
    for (std::size_t j = i + 1; j < n; ++j) {
      const double k = phi((x[i] - x[j]) / h);
      acc[i] += k;
      acc[j] += k;  // column i of row j, after its columns 0..i-1
    }
  }
  const long double nn = static_cast<long double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    sums[i] = static_cast<double>(acc[i]);
    means[i] = static_cast<double>(acc[i] / nn);
  }
}

// The estimate's sums at any points q (issue 43: qmargin() of 1e5 values
// asked 2e8 kernel values of R's outer()): out[i] = sum_j w_j (term((q_i -
// x_j) / h) - shift_j) / n_total, `term` the CDF (either tail) or the
// density the R code used (R's pnorm(), dnorm()); w null: every weight 1,
// shift null: none. Each row is added in long double in column order and
// divided there, as rowMeans() of the R matrix does, so that without
// weights the values are nk_cdf()'s and d()'s matrices' to the bit.
template <typename Term>
void point_means(const double* x, const double* w, const double* shift, std::size_t n, double n_total, double h,
                 const double* q, std::size_t m, Term term, double* out, CancelToken* cancel = nullptr) {
  const long double nn = static_cast<long double>(n_total);
  for (std::size_t i = 0; i < m; ++i) {
    if (i % 64 == 0) throw_if_cancelled(cancel);
    long double acc = 0.0L;
    for (std::size_t j = 0; j < n; ++j) {
      double v = term((q[i] - x[j]) / h);
      if (shift) v -= shift[j];
      acc += w ? w[j] * v : v;
    }
    out[i] = static_cast<double>(acc / nn);
  }
}

}  // namespace normal_kernel
}  // namespace irtopics

#endif
