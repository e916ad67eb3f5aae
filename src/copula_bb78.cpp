// The records of the BB7 and BB8 copulas (copula_bb.h), defined once here
// and declared in copula_families.h: the densities, h-functions and fits of
// a family are compiled only in the file that defines its record, and the
// families' files compile in parallel (CONTRIBUTING.md, "C++ layout").
// Pure C++: no R types.
#include "copula_bb.h"
#include "copula_families.h"

namespace irtopics {
namespace copula_detail {

constexpr CopulaFamily kBB7 = {
    "BB7", 2, true, true, false, kCorner11 | kCorner00, 0,
    bb7_valid, bb7_log_pdf, bb7_h1, h2_exchangeable<bb7_h1>, nullptr, bb7_tau,
    bb_loglik<BB7DensityT>, bb7_bounds, bb7_starts, false, nullptr,
    bb_loglik_d2<BB7DensityT>};

// VineCopula lists BB8 with the upper-tail families and, for moderate tails,
// with the lower-tail ones too
constexpr CopulaFamily kBB8 = {
    "BB8", 2, true, true, false, kCorner11, kCorner00,
    bb8_valid, bb8_log_pdf, bb8_h1, h2_exchangeable<bb8_h1>, nullptr, bb8_tau,
    bb_loglik<BB8DensityT>, bb8_bounds, bb8_starts, false, nullptr,
    bb_loglik_d2<BB8DensityT>};

}  // namespace copula_detail
}  // namespace irtopics
