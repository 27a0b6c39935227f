// `import CoreGraphics` in widget code is for CGFloat, CGPoint, CGSize, CGRect and
// CGAffineTransform: Foundation has the first four on Linux, the SDK the last; the rest of Apple's
// 2D drawing has no counterpart here (docs/PORTING.md).
@_exported import Foundation
@_exported import struct WidgetKit.CGAffineTransform
