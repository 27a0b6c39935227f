// What Darwin declares that widget code uses and Linux's Glibc, Dispatch and Foundation lack.
// `import WidgetKit` brings this module; `widgets build` imports it into every file, as Xcode's
// SDK has these everywhere.
public import Foundation

/// Nanoseconds in a second, as Darwin's `<sys/time.h>` has it (`DispatchTime.now() + .nanoseconds(...)`).
public let NSEC_PER_SEC: UInt64 = 1_000_000_000
public let NSEC_PER_MSEC: UInt64 = 1_000_000
public let NSEC_PER_USEC: UInt64 = 1_000
public let USEC_PER_SEC: UInt64 = 1_000_000
public let MSEC_PER_SEC: UInt64 = 1_000

/// CoreFoundation's time types, which Apple's Foundation brings.
public typealias CFTimeInterval = Double
public typealias CFAbsoluteTime = Double

/// Seconds since 2001-01-01, as CoreFoundation counts them.
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime { Date().timeIntervalSinceReferenceDate }

/// Objective-C's autorelease pool, which Linux does not have: the body runs, nothing more.
public func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result { try body() }

extension ProcessInfo {
    /// Never: this is Linux.
    public var isiOSAppOnMac: Bool { false }
    public var isMacCatalystApp: Bool { false }
}

extension URL {
    /// The user's documents folder (`~/Documents`, or `XDG_DOCUMENTS_DIR`'s), as an iOS app's
    /// Documents directory is its own.
    public static var documentsDirectory: URL {
        FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first ?? URL.homeDirectory.appendingPathComponent("Documents")
    }

    /// `$XDG_CACHE_HOME` (`~/.cache`).
    public static var cachesDirectory: URL {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first ?? URL.homeDirectory.appendingPathComponent(".cache")
    }

    /// `$XDG_DATA_HOME` (`~/.local/share`).
    public static var applicationSupportDirectory: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL.homeDirectory.appendingPathComponent(".local/share")
    }

    /// The Library folder iOS gives an app; `$XDG_DATA_HOME` here.
    public static var libraryDirectory: URL { applicationSupportDirectory }
}
