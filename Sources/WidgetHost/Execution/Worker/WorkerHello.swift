import Glibc
import WidgetABI
import WidgetWire

/// What a worker reports once it has loaded its bundle, in the first message on its channel: the
/// bundle as it describes itself, the widgets it registered (with each provider's memory guard
/// slot), and what it refused. Encoded here and decoded here, as JSON.
///
/// It carries the worker protocol version first. A host refuses a worker of another version (an
/// older or newer `ProcessIsolation.workerExecutable`) naming both, and reads nothing else of it.
struct WorkerHello: Sendable {
    /// The version of the worker protocol: the worker's command line, this message, and the request,
    /// clock and answer messages (`WorkerMessage`). Raised with any change to them.
    static let protocolVersion = 3

    struct Widget: Sendable {
        let declaration: WidgetDeclaration
        /// The memory guard slot of its provider, in the worker.
        let slot: UInt32
    }

    /// The protocol version the worker speaks; 0 when it did not say (a worker from before versions).
    let version: Int
    /// The worker's process id, as it sees it.
    let pid: Int32
    /// Nil when the worker refused the bundle (`problems` says why).
    let bundle: BundleDescription?
    let widgets: [Widget]
    let problems: [LoadProblem]

    init(pid: Int32 = getpid(), bundle: BundleDescription?, widgets: [Widget], problems: [LoadProblem]) {
        version = Self.protocolVersion
        self.pid = pid
        self.bundle = bundle
        self.widgets = widgets
        self.problems = problems
    }

    /// Whether the worker speaks this host's protocol.
    var isCompatible: Bool { version == Self.protocolVersion }

    var json: JSONObject {
        var object = JSONObject([("protocol", .number(Double(version))), ("pid", .number(Double(pid)))])
        if let bundle {
            object["bundle"] = .object(
                JSONObject([
                    ("name", .string(bundle.name)), ("builtWith", bundle.builtWith.map(JSONValue.string) ?? .null),
                    ("abiMajor", .number(Double(bundle.abiVersion.major))), ("abiMinor", .number(Double(bundle.abiVersion.minor))),
                    ("memoryLimit", bundle.memoryLimit.map { .number(Double($0)) } ?? .null),
                    ("urlSchemes", .array(bundle.urlSchemes.map(JSONValue.string))),
                    ("metadata", .object(JSONObject(bundle.metadata.fields.map { ($0.name, .string($0.value)) }))),
                    ("identifier", bundle.identifier.map(JSONValue.string) ?? .null),
                    ("appGroups", .array(bundle.appGroups.map(JSONValue.string))),
                ]))
        }
        object["widgets"] = .array(
            widgets.map { widget in
                let declaration = widget.declaration
                return .object(
                    JSONObject([
                        ("kind", .string(declaration.kind)), ("displayName", .string(declaration.displayName)),
                        ("description", .string(declaration.description)),
                        ("families", .array(declaration.families.map { .string($0.rawValue) })),
                        ("configuration", .string(declaration.configurationKind.rawValue)),
                        ("configurationName", declaration.configurationName.map(JSONValue.string) ?? .null),
                        ("contentMarginsDisabled", .bool(declaration.contentMarginsDisabled)),
                        ("schema", declaration.configuration?.json ?? .null),
                        ("slot", .number(Double(widget.slot))),
                    ]))
            })
        object["problems"] = .array(
            problems.map { .object(JSONObject([("reason", .string($0.reason.rawValue)), ("message", .string($0.message))])) })
        return object
    }

    /// Reads a worker's hello; its problems are filed under `path`, the file as the host named it.
    /// Only the version is read from a worker of another protocol version.
    init(json message: JSONObject, path: String) throws(ChannelError) {
        // Numbers from a worker are checked, never trusted to fit.
        func number(_ value: JSONValue?) -> Double? { value?.numberValue }
        version = number(message["protocol"]).flatMap(Int.init(exactly:)) ?? 0
        pid = number(message["pid"]).flatMap(Int32.init(exactly:)) ?? 0
        guard version == Self.protocolVersion else {
            (bundle, widgets, problems) = (nil, [], [])
            return
        }
        if let described = message["bundle"]?.objectValue {
            guard let name = described["name"]?.stringValue, let major = number(described["abiMajor"]).flatMap(UInt32.init(exactly:)),
                let minor = number(described["abiMinor"]).flatMap(UInt32.init(exactly:))
            else { throw .malformed("hello: incomplete bundle") }
            // Text from a worker is a bundle's text: it may have been written by the bundle itself.
            func text(_ value: JSONValue?) -> String? { value?.stringValue.map { String(bundleText: $0) } }
            bundle = BundleDescription(
                name: String(bundleText: name), builtWith: text(described["builtWith"]), abiVersion: ABIVersion(major: major, minor: minor),
                memoryLimit: number(described["memoryLimit"]).map { $0 >= 0x1p63 ? Int64.max : Int64(exactly: $0.rounded()) ?? 0 },
                urlSchemes: (described["urlSchemes"]?.arrayValue ?? []).compactMap { $0.stringValue }.filter(URLSchemes.isValid),
                metadata: BundleMetadata(
                    version: text(described["metadata"]?["version"]), vendor: text(described["metadata"]?["vendor"]),
                    license: text(described["metadata"]?["license"]), homepage: text(described["metadata"]?["homepage"])),
                identifier: text(described["identifier"]).flatMap { $0.isEmpty || $0.count > 255 ? nil : $0 },
                appGroups: (described["appGroups"]?.arrayValue ?? []).prefix(64).compactMap { text($0) }.filter { !$0.isEmpty && !$0.contains("/") })
        } else {
            bundle = nil
        }
        var widgets: [Widget] = []
        let reported = message["widgets"]?.arrayValue ?? []
        guard reported.count <= WidgetRegistry.maximumWidgetsPerBundle else {
            throw .malformed("hello: \(reported.count) widgets, more than the \(WidgetRegistry.maximumWidgetsPerBundle) a bundle may register")
        }
        for value in reported {
            guard let kind = value["kind"]?.stringValue,
                let families = value["families"]?.arrayValue?.compactMap({ $0.stringValue.flatMap(WidgetFamily.init(rawValue:)) }),
                let configuration = value["configuration"]?.stringValue.flatMap(ConfigurationKind.init(rawValue:)),
                !families.isEmpty
            else { throw .malformed("hello: incomplete widget") }
            guard !kind.hasControlCharacters, kind.utf8.count <= WidgetDeclaration.maximumKindLength else {
                throw .malformed("hello: a widget kind with control characters or longer than \(WidgetDeclaration.maximumKindLength) bytes")
            }
            func text(_ value: JSONValue?) -> String? { value?.stringValue.map { String(bundleText: $0) } }
            let schema: ConfigurationSchema?
            if let value = value["schema"], value != .null {
                do { schema = try ConfigurationSchema(json: value) } catch { throw .malformed("hello: bad schema: \(error)") }
            } else {
                schema = nil
            }
            widgets.append(
                Widget(
                    declaration: WidgetDeclaration(
                        kind: kind, displayName: text(value["displayName"]) ?? "", description: text(value["description"]) ?? "",
                        families: families, configurationKind: configuration, configurationName: text(value["configurationName"]),
                        contentMarginsDisabled: value["contentMarginsDisabled"]?.boolValue ?? false, configuration: schema),
                    slot: number(value["slot"]).flatMap(UInt32.init(exactly:)) ?? 0))
        }
        self.widgets = widgets
        problems = (message["problems"]?.arrayValue ?? []).map { value in
            LoadProblem(
                path: path, reason: value["reason"]?.stringValue.flatMap(LoadProblem.Reason.init(rawValue:)) ?? .invalidBundle,
                message: value["message"]?.stringValue.map { String(bundleText: $0) } ?? "refused by its worker")
        }
    }
}
