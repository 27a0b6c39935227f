import CWidgetABI
import Foundation
import WidgetWire

/// A bundle the host opened, checked and initialized. Bundles are never unloaded: a Swift image cannot
/// be `dlclose`d safely, so a bundle lives as long as the process.
public final class LoadedBundle: @unchecked Sendable {
    /// The file, as found on the search path.
    public let path: String
    /// The bundle's own name for itself (`widget_bundle_t.name`), or the file name.
    public let name: String
    public let builtWith: String?
    public let abiVersion: (major: UInt32, minor: UInt32)
    /// The heap limit the bundle asks for its providers (ABI 1.1), nil for the host's.
    public let requestedMemoryLimit: Int64?
    /// The URL schemes whose links the bundle opens (ABI 1.3), lowercase.
    public let urlSchemes: [String]

    /// For a bundle opened in this process: its entry, request function and the host struct it was
    /// given. Nil for a bundle served by a worker process.
    private let entry: UnsafePointer<widget_bundle_t>?
    private let requestFunction: (@convention(c) (UnsafePointer<widget_request_t>?, widget_completion_fn?, UnsafeMutableRawPointer?) -> Void)?
    private let host: UnsafeMutablePointer<widget_host_t>?
    /// For a bundle served by a worker process (process isolation): its supervisor.
    let worker: WorkerSupervisor?

    /// The process id of the worker serving the bundle, while one runs (process isolation).
    public var workerProcessID: Int32? { worker?.workerPID }
    /// Why the bundle is disabled, when its worker crashed too often (process isolation).
    public var disabledReason: String? { worker?.disabledReason }
    /// The registry taking this bundle's registrations; set only while `initialize` runs.
    private var registering: WidgetRegistry?

    /// The file's name, for diagnostics.
    public let fileName: String

    init(path: String, entry: UnsafePointer<widget_bundle_t>) throws(LoadProblem) {
        self.path = path
        self.entry = entry
        let fileName = (path as NSString).lastPathComponent
        self.fileName = fileName
        func refuse(_ reason: LoadProblem.Reason, _ message: String) -> LoadProblem {
            LoadProblem(path: path, reason: reason, message: message)
        }
        // The version and size come first and are read alone: nothing else of the struct is touched
        // (and no function of the bundle called) until they check out.
        let version = UnsafeRawPointer(entry).load(as: widget_abi_version_t.self)
        abiVersion = (version.major, version.minor)
        let hostVersion = "\(WIDGET_ABI_VERSION_MAJOR).\(WIDGET_ABI_VERSION_MINOR)"
        guard version.major == UInt32(WIDGET_ABI_VERSION_MAJOR) else {
            throw refuse(
                .abiMismatch,
                "ABI version \(version.major).\(version.minor) is not supported: this host speaks ABI \(hostVersion) (major versions must match)"
            )
        }
        guard version.minor <= UInt32(WIDGET_ABI_VERSION_MINOR) else {
            throw refuse(
                .abiMismatch,
                "needs ABI \(version.major).\(version.minor), newer than this host's \(hostVersion): update the host")
        }
        let size = ABISize.declared(entry, at: MemoryLayout<widget_bundle_t>.offset(of: \.struct_size)!)
        guard size >= ABISize.bundle else {
            throw refuse(.invalidBundle, "widget_bundle_t.struct_size \(size) is smaller than ABI 1.0's \(ABISize.bundle)")
        }
        // Fields of later minor versions are read only when the bundle's struct has them.
        let bundle = ABISize.copy(entry, declared: size, as: widget_bundle_t.self)
        requestedMemoryLimit = bundle.memory_limit > 0 ? Int64(clamping: bundle.memory_limit) : nil
        urlSchemes = try Self.schemes(bundle.url_schemes, refuse: refuse)
        guard bundle.initialize != nil, let request = bundle.request else {
            throw refuse(.invalidBundle, "widget_bundle_t lacks its initialize or request function")
        }
        requestFunction = request
        worker = nil
        name = bundle.name.map { String(bundleText: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? fileName
        builtWith = bundle.built_with.map { String(bundleText: $0) }
        if let builtWith, builtWith.hasPrefix("swift-"), builtWith != Toolchain.current {
            throw refuse(
                .toolchainMismatch,
                "built with \(builtWith), but this host was built with \(Toolchain.current); Swift has no stable ABI on Linux, rebuild the bundle with the host's compiler"
            )
        }
        // Placed with this host's own layout, never through generic code (see ABISize.copy).
        let host = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<widget_host_t>.size, alignment: MemoryLayout<widget_host_t>.alignment
        ).bindMemory(to: widget_host_t.self, capacity: 1)
        self.host = host
        var hostValue = widget_host_t(
                abi_version: widget_abi_version_t(major: UInt32(WIDGET_ABI_VERSION_MAJOR), minor: UInt32(WIDGET_ABI_VERSION_MINOR)),
                struct_size: UInt32(MemoryLayout<widget_host_t>.size),
                host_data: nil,
                register_widget: { host, descriptor in
                    guard let data = host?.pointee.host_data else { return false }
                    return Unmanaged<LoadedBundle>.fromOpaque(data).takeUnretainedValue().register(descriptor)
                },
                log: { host, level, message in
                    guard let data = host?.pointee.host_data else { return }
                    let bundle = Unmanaged<LoadedBundle>.fromOpaque(data).takeUnretainedValue()
                    let text = message.map { String(bundleText: $0) } ?? ""
                    let levels: [HostLog.Level] = [.debug, .info, .warning, .error]
                    HostLog.log(levels[min(Int(level.rawValue), 3)], "\(bundle.fileName): \(text)")
                })
        withUnsafeMutablePointer(to: &hostValue) {
            UnsafeMutableRawPointer(host).copyMemory(from: $0, byteCount: MemoryLayout<widget_host_t>.size)
        }
        // The host struct lives as long as the bundle, which lives as long as the process.
        host.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
    }

    /// A bundle a worker process opened and serves, as the worker described it.
    init(path: String, described: WorkerHello.Bundle, worker: WorkerSupervisor) {
        self.path = path
        fileName = (path as NSString).lastPathComponent
        name = described.name
        builtWith = described.builtWith
        abiVersion = described.abiVersion
        requestedMemoryLimit = described.memoryLimit
        urlSchemes = described.urlSchemes
        entry = nil
        requestFunction = nil
        host = nil
        self.worker = worker
    }

    /// Reads a NULL-terminated array of URL schemes, checking each is one (RFC 3986: a letter, then
    /// letters, digits, `+`, `-` or `.`).
    static func schemes(
        _ array: UnsafePointer<UnsafePointer<CChar>?>?, refuse: (LoadProblem.Reason, String) -> LoadProblem
    ) throws(LoadProblem) -> [String] {
        guard let array else { return [] }
        var schemes: [String] = []
        for index in 0..<65 {
            guard let pointer = array[index] else { return schemes }
            guard index < 64 else { break }
            let scheme = String(bundleText: pointer)
            guard URLSchemes.isValid(scheme) else {
                throw refuse(.invalidBundle, "url_schemes[\(index)] \"\(scheme)\" is not a URL scheme (a letter, then letters, digits, +, - or .)")
            }
            schemes.append(scheme.lowercased())
        }
        throw refuse(.invalidBundle, "url_schemes has more than 64 entries (or lacks its NULL terminator)")
    }

    /// Calls the bundle's request function on this thread (bundles opened in this process only).
    func request(_ request: UnsafePointer<widget_request_t>, _ completion: widget_completion_fn, _ context: UnsafeMutableRawPointer?) {
        requestFunction!(request, completion, context)
    }

    /// Calls the bundle's `initialize`, taking its registrations into `registry`.
    func initialize(into registry: WidgetRegistry) throws(LoadProblem) {
        guard let entry, let host else { return }
        registering = registry
        defer { registering = nil }
        var error = [CChar](repeating: 0, count: 512)
        let succeeded = entry.pointee.initialize!(host, &error, error.count)
        guard succeeded else {
            error[error.count - 1] = 0
            let reason = error.withUnsafeBufferPointer { String(bundleText: $0.baseAddress!) }
            throw LoadProblem(
                path: path, reason: .initializationFailed,
                message: "initialization failed: \(reason.isEmpty ? "the bundle gave no reason" : reason)")
        }
    }

    private func register(_ pointer: UnsafePointer<widget_descriptor_t>?) -> Bool {
        guard let registry = registering else {
            HostLog.warning("\(fileName): register_widget called outside initialize; ignored")
            return false
        }
        switch RegisteredWidget.validate(pointer, bundle: self) {
        case .failure(let problem):
            registry.problems.append(problem)
            return false
        case .success(let widget):
            return registry.accept(widget)
        }
    }
}

/// What kind of configuration declared a widget.
public enum ConfigurationKind: String, Sendable {
    case `static`
    case appIntent
    case intent

    init?(abiValue: UInt32) {
        switch abiValue {
        case UInt32(WIDGET_CONFIGURATION_STATIC.rawValue): self = .static
        case UInt32(WIDGET_CONFIGURATION_APP_INTENT.rawValue): self = .appIntent
        case UInt32(WIDGET_CONFIGURATION_INTENT.rawValue): self = .intent
        default: return nil
        }
    }

    /// The SDK declaration it stands for.
    var apiName: String {
        switch self {
        case .static: "StaticConfiguration"
        case .appIntent: "AppIntentConfiguration"
        case .intent: "IntentConfiguration"
        }
    }
}

/// What a bundle declared of one widget, as checked: the same whether it was read from the
/// bundle's descriptor in this process or from a worker's report of it.
struct WidgetDeclaration: Sendable {
    let kind: String
    let displayName: String
    let description: String
    let families: [WidgetFamily]
    let configurationKind: ConfigurationKind
    let configurationName: String?
    let contentMarginsDisabled: Bool
    let configuration: ConfigurationSchema?
}

/// A widget a bundle registered and the host accepted.
public struct RegisteredWidget: Sendable {
    public var kind: String { fields.declaration.kind }
    public var displayName: String { fields.declaration.displayName }
    public var description: String { fields.declaration.description }
    public var families: [WidgetFamily] { fields.declaration.families }
    public var configurationKind: ConfigurationKind { fields.declaration.configurationKind }
    /// The intent type's name, for configurable widgets.
    public var configurationName: String? { fields.declaration.configurationName }
    public var contentMarginsDisabled: Bool { fields.declaration.contentMarginsDisabled }
    /// A configurable widget's parameters (ABI 1.2); nil for static widgets.
    public var configuration: ConfigurationSchema? { fields.declaration.configuration }
    public var bundle: LoadedBundle { fields.bundle }

    /// The fields, in one immutable box: a widget is copied into each request's closures, and
    /// copying it is then one retain, not one per field.
    private final class Fields: Sendable {
        let declaration: WidgetDeclaration
        let bundle: LoadedBundle

        init(_ declaration: WidgetDeclaration, bundle: LoadedBundle) {
            self.declaration = declaration
            self.bundle = bundle
        }
    }

    private let fields: Fields

    init(_ declaration: WidgetDeclaration, bundle: LoadedBundle) {
        fields = Fields(declaration, bundle: bundle)
    }

    static func validate(_ pointer: UnsafePointer<widget_descriptor_t>?, bundle: LoadedBundle) -> Result<RegisteredWidget, LoadProblem> {
        func refuse(_ message: String) -> Result<RegisteredWidget, LoadProblem> {
            .failure(LoadProblem(path: bundle.path, reason: .invalidWidget, message: message))
        }
        guard let pointer else { return refuse("register_widget called with no descriptor") }
        let declared = ABISize.declared(pointer)
        guard declared >= ABISize.descriptor else {
            return refuse("widget_descriptor_t.struct_size \(declared) is smaller than ABI 1.0's \(ABISize.descriptor)")
        }
        let descriptor = ABISize.copy(pointer, declared: declared, as: widget_descriptor_t.self)
        let kind = descriptor.kind.map { String(cString: $0) } ?? ""
        guard !kind.isEmpty else { return refuse("a widget was registered with an empty kind") }
        guard !kind.hasControlCharacters else {
            return refuse("a widget kind contains control characters: \(String(bundleText: descriptor.kind!))")
        }
        guard descriptor.families != 0 else { return refuse("widget \"\(kind)\" supports no family") }
        let known = WidgetFamily.mask(WidgetFamily.allCases)
        guard descriptor.families & ~known == 0 else {
            return refuse("widget \"\(kind)\" names unknown families (mask 0x\(String(descriptor.families, radix: 16)))")
        }
        guard let configurationKind = ConfigurationKind(abiValue: descriptor.configuration_kind) else {
            return refuse("widget \"\(kind)\" has unknown configuration kind \(descriptor.configuration_kind)")
        }
        var schema: ConfigurationSchema?
        if let text = descriptor.configuration_schema {
            do {
                schema = try ConfigurationSchema(json: JSONValue.parse(String(cString: text)))
            } catch let error as JSONSyntaxError {
                return refuse("widget \"\(kind)\" has a malformed configuration schema: \(error)")
            } catch {
                return refuse("widget \"\(kind)\" has an invalid configuration schema: \(error)")
            }
        }
        if configurationKind == .static, schema != nil {
            return refuse("widget \"\(kind)\" is static but describes configuration parameters")
        }
        // Schemas came with ABI 1.2: an older configurable widget has none to give, and no parameters.
        let describesSchema = declared >= MemoryLayout<widget_descriptor_t>.offset(of: \.configuration_schema)! + MemoryLayout<UnsafeRawPointer>.size
        if configurationKind != .static, schema == nil, !describesSchema {
            schema = ConfigurationSchema(title: "", description: "", parameters: [])
        }
        if configurationKind != .static, schema == nil {
            return refuse("widget \"\(kind)\" is configurable (\(configurationKind.apiName)) but describes no configuration schema")
        }
        return .success(
            RegisteredWidget(
                WidgetDeclaration(
                    kind: kind,
                    displayName: descriptor.display_name.map { String(bundleText: $0) } ?? "",
                    description: descriptor.description.map { String(bundleText: $0) } ?? "",
                    families: WidgetFamily.families(inMask: descriptor.families),
                    configurationKind: configurationKind,
                    configurationName: descriptor.configuration_name.map { String(bundleText: $0) },
                    contentMarginsDisabled: descriptor.flags & UInt32(WIDGET_FLAG_CONTENT_MARGINS_DISABLED) != 0,
                    configuration: schema),
                bundle: bundle))
    }
}

enum URLSchemes {
    static func isValid(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scheme.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }
}
