import Foundation
import WidgetWire

/// Apple's unified logging, for widget code that logs (`Logger(subsystem:category:)`): each message
/// is one line on standard error, which the host attributes to the bundle and shows at the
/// message's level. Debug and info messages are shown when `WIDGETS_LOG` is `debug` (info also
/// with `info`), as the host's own.
public struct Logger: Sendable {
    public let subsystem: String
    public let category: String

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    public init(_ log: OSLog) {
        self.init(subsystem: log.subsystem, category: log.category)
    }

    /// The default log: no subsystem or category.
    public init() {
        self.init(subsystem: "", category: "")
    }

    public func log(_ message: OSLogMessage) { log(level: .default, message) }

    public func log(level: OSLogType, _ message: OSLogMessage) {
        guard level.isShown else { return }
        let origin = category.isEmpty ? (subsystem.isEmpty ? "" : "\(subsystem): ") : "\(category): "
        let line = "widgets: \(level.hostLevel.name): \(origin)\(message.text)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    public func trace(_ message: OSLogMessage) { log(level: .debug, message) }
    public func debug(_ message: OSLogMessage) { log(level: .debug, message) }
    public func info(_ message: OSLogMessage) { log(level: .info, message) }
    public func notice(_ message: OSLogMessage) { log(level: .default, message) }
    public func warning(_ message: OSLogMessage) { log(level: .error, message) }
    public func error(_ message: OSLogMessage) { log(level: .error, message) }
    public func critical(_ message: OSLogMessage) { log(level: .fault, message) }
    public func fault(_ message: OSLogMessage) { log(level: .fault, message) }
}

/// A log object: a subsystem and a category (the older `os_log` API).
public final class OSLog: Sendable {
    public let subsystem: String
    public let category: String

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    public static let `default` = OSLog(subsystem: "", category: "")
    public static let disabled = OSLog(subsystem: "", category: "disabled")
}

/// A message's level.
public struct OSLogType: Equatable, Sendable, RawRepresentable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let `default` = OSLogType(0x00)
    public static let info = OSLogType(0x01)
    public static let debug = OSLogType(0x02)
    public static let error = OSLogType(0x10)
    public static let fault = OSLogType(0x11)

    /// The host's level for it: debug, info, warning (default, "notice") or error.
    var hostLevel: LogLevel {
        switch self {
        case .debug: .debug
        case .info: .info
        case .error, .fault: .error
        default: .warning
        }
    }

    /// Whether a message at this level is written: at or above the level `WIDGETS_LOG` names, as the
    /// host's own lines (`widgets -v` and `-q` set it for the bundles they run); when it is unset,
    /// notices and above, as a debug or info message on iOS is not shown unless asked for.
    var isShown: Bool {
        hostLevel >= (LogLevel.environment ?? .warning)
    }
}

/// Whether an interpolated value may be shown. On Linux the log is the user's own: every value is
/// shown, whatever its privacy.
public struct OSLogPrivacy: Equatable, Sendable {
    let name: String
    public static let `public` = OSLogPrivacy(name: "public")
    public static let `private` = OSLogPrivacy(name: "private")
    public static let sensitive = OSLogPrivacy(name: "sensitive")
    public static let auto = OSLogPrivacy(name: "auto")

    public enum Mask: Equatable, Sendable {
        case hash, none
    }
    public static func `private`(mask: Mask) -> OSLogPrivacy { .private }
    public static func sensitive(mask: Mask) -> OSLogPrivacy { .sensitive }
    public static func auto(mask: Mask) -> OSLogPrivacy { .auto }
}

/// How an interpolated value lines up in its column.
public struct OSLogStringAlignment: Sendable {
    let width: Int
    public static let none = OSLogStringAlignment(width: 0)
    public static func right(columns: Int) -> OSLogStringAlignment { OSLogStringAlignment(width: columns) }
    public static func left(columns: Int) -> OSLogStringAlignment { OSLogStringAlignment(width: -columns) }
}

/// How an interpolated integer or floating-point number is written.
public enum OSLogIntegerFormatting: Sendable {
    case decimal, hex, octal
    public static func decimal(explicitPositiveSign: Bool = false, minDigits: Int = 0) -> Self { .decimal }
    public static func hex(explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false, minDigits: Int = 0) -> Self { .hex }
}

public enum OSLogFloatFormatting: Sendable {
    case fixed, exponential, hybrid
    public static func fixed(precision: Int, explicitPositiveSign: Bool = false, uppercase: Bool = false) -> Self { .fixed }
}

/// A message, written as a string literal with interpolations (`"fetched \(count) items"`).
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
    public let text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: OSLogInterpolation) { text = stringInterpolation.text }
}

public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
    var text = ""

    public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }
    public mutating func appendLiteral(_ literal: String) { text += literal }

    mutating func append(_ value: String, _ align: OSLogStringAlignment) {
        let pad = max(0, abs(align.width) - value.count)
        let padding = String(repeating: " ", count: pad)
        text += align.width > 0 ? padding + value : value + (align.width < 0 ? padding : "")
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> some CustomStringConvertible, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        append(value().description, align)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        append(value(), align)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> some BinaryInteger, format: OSLogIntegerFormatting = .decimal, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        let number = value()
        let written = switch format {
        case .decimal: String(number)
        case .hex: String(number, radix: 16)
        case .octal: String(number, radix: 8)
        }
        append(written, align)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Double, format: OSLogFloatFormatting = .fixed, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        append(String(value()), align)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Bool, privacy: OSLogPrivacy = .auto) {
        append(value() ? "true" : "false", .none)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> any Error, privacy: OSLogPrivacy = .auto) {
        append(String(describing: value()), .none)
    }

    public mutating func appendInterpolation<T>(_ value: @autoclosure () -> T, privacy: OSLogPrivacy = .auto) {
        append(String(describing: value()), .none)
    }
}

/// Logs a message (the older API): `os_log("fetched %d items", log: log, type: .info, count)`.
public func os_log(_ message: StaticString, log: OSLog = .default, type: OSLogType = .default, _ arguments: any CVarArg...) {
    Logger(log).log(level: type, OSLogMessage(stringLiteral: String(format: message.description, arguments: arguments)))
}

public func os_log(_ type: OSLogType, log: OSLog = .default, _ message: StaticString, _ arguments: any CVarArg...) {
    Logger(log).log(level: type, OSLogMessage(stringLiteral: String(format: message.description, arguments: arguments)))
}
