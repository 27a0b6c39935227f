import FoundationEssentials
import WidgetABI
import WidgetSupport

/// What a bundle says of itself in its `widget_bundle_t`, as checked: the same whether the host
/// read it in this process or a worker reported it.
struct BundleDescription: Sendable, Equatable {
    /// The bundle's own name for itself (`widget_bundle_t.name`), or the file name.
    let name: String
    let builtWith: String?
    let abiVersion: ABIVersion
    /// The heap limit the bundle asks for its providers (ABI 1.1), nil for the host's.
    let memoryLimit: Int64?
    /// The URL schemes whose links the bundle opens (ABI 1.3), lowercase.
    let urlSchemes: [String]
    /// What the bundle says of itself (ABI 1.5), each optional.
    var metadata = BundleMetadata()
    /// Whose it is (ABI 1.6): its identifier and the app groups it shares with its app.
    var identifier: String?
    var appGroups: [String] = []
}

/// What a bundle says of itself beyond its name (ABI 1.5): its version, who makes it, its licence,
/// a web page. Each is nil when the bundle does not say.
public struct BundleMetadata: Sendable, Equatable {
    public var version: String?
    public var vendor: String?
    public var license: String?
    public var homepage: String?

    public init(version: String? = nil, vendor: String? = nil, license: String? = nil, homepage: String? = nil) {
        self.version = version
        self.vendor = vendor
        self.license = license
        self.homepage = homepage
    }

    /// The fields as (name, value) pairs, those given only, in the header's order.
    public var fields: [(name: String, value: String)] {
        [("version", version), ("vendor", vendor), ("license", license), ("homepage", homepage)].compactMap { name, value in
            value.map { (name, $0) }
        }
    }
}

/// A bundle the host loaded and accepted: what it says of itself, and the backend its providers run
/// in (this process, or a worker process). Bundles are never unloaded from a process: a Swift image
/// cannot be `dlclose`d safely, so a bundle loaded in process lives as long as the process.
public final class LoadedBundle: Sendable {
    /// The file, as found on the search path.
    public let path: String
    /// The file's name, for diagnostics.
    public let fileName: String
    let description: BundleDescription
    /// Where its providers run, and how requests reach them.
    let backend: any ProviderBackend

    init(path: String, description: BundleDescription, backend: any ProviderBackend) {
        self.path = path
        fileName = path.pathFileName
        self.description = description
        self.backend = backend
    }

    /// The bundle's own name for itself (`widget_bundle_t.name`), or the file name.
    public var name: String { description.name }
    /// The toolchain that built it, as it says ("swift-6.3.1", "c").
    public var builtWith: String? { description.builtWith }
    public var abiVersion: ABIVersion { description.abiVersion }
    /// The heap limit the bundle asks for its providers (ABI 1.1), nil for the host's.
    public var requestedMemoryLimit: Int64? { description.memoryLimit }
    /// The URL schemes whose links the bundle opens (ABI 1.3), lowercase.
    public var urlSchemes: [String] { description.urlSchemes }
    /// The bundle's identifier and app groups (ABI 1.6): what ties it to an app.
    public var identifier: String? { description.identifier }
    public var appGroups: [String] { description.appGroups }
    /// Its version, vendor, licence and web page, as far as it says (ABI 1.5).
    public var metadata: BundleMetadata { description.metadata }

    /// The process id of the worker serving the bundle, while one runs (process isolation).
    public var workerProcessID: Int32? { backend.processID }
    /// Why the bundle is disabled, when its worker crashed too often (process isolation).
    public var disabledReason: String? { backend.disabledReason }
}
