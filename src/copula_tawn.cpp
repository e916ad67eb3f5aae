// The records of the Tawn type 1 and type 2 copulas (copula_tawn.h), defined once here
// and declared in copula_families.h: the densities, h-functions and fits of
// a family are compiled only in the file that defines its record, and the
// families' files compile in parallel (CONTRIBUTING.md, "C++ layout").
// Pure C++: no R types.
#include "copula_tawn.h"
#include "copula_families.h"

namespace irtopics {
namespace copula_detail {

constexpr CopulaFamily kTawn1 = {
    "Tawn type 1", 2, true, false, false, kCorner11, 0,
    tawn_valid, tawn_log_pdf_t<1>, tawn_h1_t<1>, tawn_h2_t<1>, nullptr, tawn_tau2,
    tawn_loglik<1>, tawn_bounds, tawn_starts, true, nullptr, tawn_loglik_d2<1>};

constexpr CopulaFamily kTawn2 = {
    "Tawn type 2", 2, true, false, false, kCorner11, 0,
    tawn_valid, tawn_log_pdf_t<2>, tawn_h1_t<2>, tawn_h2_t<2>, nullptr, tawn_tau2,
    tawn_loglik<2>, tawn_bounds, tawn_starts, true, nullptr, tawn_loglik_d2<2>};

}  // namespace copula_detail
}  // namespace irtopics
