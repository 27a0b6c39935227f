import CWidgetABI

/// The ABI version this image was compiled against, and the rule by which a host accepts a bundle's.
public struct ABIVersion: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let major: UInt32
    public let minor: UInt32

    public init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }

    /// `WIDGET_ABI_VERSION_MAJOR.WIDGET_ABI_VERSION_MINOR` of the header this image was built with.
    public static let current = ABIVersion(major: UInt32(WIDGET_ABI_VERSION_MAJOR), minor: UInt32(WIDGET_ABI_VERSION_MINOR))

    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: ABIVersion, rhs: ABIVersion) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }

    /// Why a host of this version refuses a bundle of `bundle`'s, or nil when it loads it: the majors
    /// must be equal and the bundle's minor no newer than the host's (the header's
    /// `widget_abi_compatible`, which a C host calls).
    package static func refusal(ofBundle bundle: ABIVersion, host: ABIVersion = .current) -> String? {
        guard bundle.major == host.major else {
            return "ABI version \(bundle) is not supported: this host speaks ABI \(host) (major versions must match)"
        }
        guard bundle.minor <= host.minor else {
            return "needs ABI \(bundle), newer than this host's \(host): update the host"
        }
        return nil
    }

    /// The C `widget_abi_version_t`.
    package var c: widget_abi_version_t { widget_abi_version_t(major: major, minor: minor) }

    package init(_ value: widget_abi_version_t) { self.init(major: value.major, minor: value.minor) }
}
