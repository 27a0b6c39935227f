public import Foundation

extension NSObject {
    /// The class an archive records for this class: itself (Objective-C's `+classForCoder`), as code
    /// registering a `URLProtocol` subclass asks it (`URLProtocol.registerClass(X.classForCoder())`).
    public class func classForCoder() -> AnyClass { self }
}
