// The records of the BB1 and BB6 copulas (copula_bb.h), defined once here
// and declared in copula_families.h: the densities, h-functions and fits of
// a family are compiled only in the file that defines its record, and the
// families' files compile in parallel (CONTRIBUTING.md, "C++ layout").
// Pure C++: no R types.
#include "copula_bb.h"
#include "copula_families.h"

namespace irtopics {
namespace copula_detail {

constexpr CopulaFamily kBB1 = {
    "BB1", 2, true, true, false, kCorner11 | kCorner00, 0,
    bb1_valid, bb1_log_pdf, bb1_h1, h2_exchangeable<bb1_h1>, nullptr, bb1_tau,
    bb_loglik<BB1DensityT>, bb1_bounds, bb1_starts, false, nullptr,
    bb_loglik_d2<BB1DensityT>};

constexpr CopulaFamily kBB6 = {
    "BB6", 2, true, true, false, kCorner11, 0,
    bb6_valid, bb6_log_pdf, bb6_h1, h2_exchangeable<bb6_h1>, nullptr, bb6_tau,
    bb_loglik<BB6DensityT>, bb6_bounds, bb6_starts, false, nullptr,
    bb_loglik_d2<BB6DensityT>};

}  // namespace copula_detail
}  // namespace irtopics
