// The record of the Frank copula (copula_archimedean.h), defined once here
// and declared in copula_families.h: the densities, h-functions and fits of
// a family are compiled only in the file that defines its record, and the
// families' files compile in parallel (CONTRIBUTING.md, "C++ layout").
// Pure C++: no R types.
#include "copula_archimedean.h"
#include "copula_families.h"

namespace irtopics {
namespace copula_detail {

constexpr CopulaFamily kFrank = onepar_family<FrankFamily>(frank_fit);

}  // namespace copula_detail
}  // namespace irtopics
