// `import UIKit` in widget code is for `UIImage` and `UIColor`, which the SDK provides in their
// minimal form (docs/PORTING.md); the rest of UIKit has no meaning in a widget on Linux.
@_exported import WidgetKit
