/* The header pins its own layout (see its end); compiling it here makes a change to it fail this
 * package's build, before any bundle is built against it. */
#include "widget_abi.h"
