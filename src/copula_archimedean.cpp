// The records of the Clayton, Gumbel and Joe copulas (copula_archimedean.h), defined once here
// and declared in copula_families.h: the densities, h-functions and fits of
// a family are compiled only in the file that defines its record, and the
// families' files compile in parallel (CONTRIBUTING.md, "C++ layout").
// Pure C++: no R types.
#include "copula_archimedean.h"
#include "copula_families.h"

namespace irtopics {
namespace copula_detail {

constexpr CopulaFamily kClayton = onepar_family<ClaytonFamily>();

constexpr CopulaFamily kGumbel = onepar_family<GumbelFamily>();

constexpr CopulaFamily kJoe = onepar_family<JoeFamily>();

}  // namespace copula_detail
}  // namespace irtopics
