/* What the SDK needs of C in each bundle it is built into. */
#ifndef WIDGETKIT_SUPPORT_H
#define WIDGETKIT_SUPPORT_H

/* Calls every preview registration the `#Preview` macro put in this bundle's `widgetkit_previews`
 * ELF section, in link order; each registers its preview with the SDK. Returns how many it called. */
int widgetkit_register_previews(void);

#endif
