// What Apple's Foundation has and Linux's keeps in the SDK: `widgets build` imports this module into
// every file it compiles (as Xcode's SDK has Foundation's names everywhere), so a model file that
// imports Foundation alone finds `LocalizedStringResource` and the SDK's `NSLocalizedString`, without
// the SDK's view names (`Color`, `Image`, `Link`...), which would make a package's own of those
// ambiguous where iOS compiles them.
@_exported import struct WidgetKit.LocalizedStringResource
@_exported import func WidgetKit.NSLocalizedString
