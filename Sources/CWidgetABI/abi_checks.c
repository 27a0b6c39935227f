/* The header is the contract; this file only pins its layout so that an accidental change to a
 * struct that bundles already rely on fails the build instead of breaking loaded bundles. */
#include "widget_abi.h"

_Static_assert(offsetof(widget_bundle_t, abi_version) == 0, "abi_version must stay first");
_Static_assert(sizeof(widget_abi_version_t) == 8, "widget_abi_version_t is two uint32_t");
_Static_assert(offsetof(widget_bundle_t, struct_size) == 8, "struct_size follows abi_version");
