import CWidgetABI
import FoundationEssentials
import Glibc
import WidgetABI
import WidgetWire

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

    /// The longest widget kind, in bytes (iOS's are reverse-DNS names of a few dozen): the same in
    /// both isolation modes, as a worker's report of its bundle's kinds is held to it too.
    static let maximumKindLength = 1000

    /// Reads and checks one `widget_descriptor_t` a bundle registered; `path` names the bundle in the
    /// refusal.
    static func validate(_ pointer: UnsafePointer<widget_descriptor_t>?, path: String) -> Result<WidgetDeclaration, LoadProblem> {
        func refuse(_ message: String) -> Result<WidgetDeclaration, LoadProblem> {
            .failure(LoadProblem(path: path, reason: .invalidWidget, message: message))
        }
        guard let pointer else { return refuse("register_widget called with no descriptor") }
        let declared = ABISize.declared(pointer)
        guard declared >= ABISize.descriptor else {
            return refuse("widget_descriptor_t.struct_size \(declared) is smaller than ABI 1.0's \(ABISize.descriptor)")
        }
        let descriptor = ABISize.copy(pointer, declared: declared, as: widget_descriptor_t.self)
        guard let kindPointer = descriptor.kind, kindPointer.pointee != 0 else {
            return refuse("a widget was registered with an empty kind")
        }
        // Read no further than the longest kind allowed, whatever the bundle's string holds.
        let kindLength = strnlen(kindPointer, maximumKindLength + 1)
        guard kindLength <= maximumKindLength else {
            // Quoted by its start, so the refusal reads the same however it travels.
            let length = strnlen(kindPointer, 1 << 24)
            let start = String(decoding: UnsafeRawBufferPointer(start: kindPointer, count: 40), as: UTF8.self).onOneLine
            return refuse("a widget kind is longer than \(maximumKindLength) bytes (\(length == 1 << 24 ? "16 MiB or more" : "\(length) bytes")): \"\(start)…\"")
        }
        let kind = String(decoding: UnsafeRawBufferPointer(start: kindPointer, count: kindLength), as: UTF8.self)
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
        if configurationKind == .static || configurationKind == .activity, schema != nil {
            return refuse("widget \"\(kind)\" is \(configurationKind == .static ? "static" : "a Live Activity") but describes configuration parameters")
        }
        if configurationKind == .activity || configurationKind == .control {
            // An activity is drawn for its attributes and state, a control for its value: neither is
            // configured by a person here.
            return .success(
                WidgetDeclaration(
                    kind: kind, displayName: descriptor.display_name.map { String(bundleText: $0) } ?? "",
                    description: descriptor.description.map { String(bundleText: $0) } ?? "", families: WidgetFamily.families(inMask: descriptor.families),
                    configurationKind: configurationKind, configurationName: nil, contentMarginsDisabled: false, configuration: nil))
        }
        // Schemas came with ABI 1.2: an older configurable widget has none to give, and no parameters.
        let describesSchema = declared >= ABISize.descriptor(forMinor: 2)
        if configurationKind != .static, schema == nil, !describesSchema {
            schema = ConfigurationSchema(title: "", description: "", parameters: [])
        }
        if configurationKind != .static, schema == nil {
            return refuse("widget \"\(kind)\" is configurable (\(configurationKind.apiName)) but describes no configuration schema")
        }
        return .success(
            WidgetDeclaration(
                kind: kind,
                displayName: descriptor.display_name.map { String(bundleText: $0) } ?? "",
                description: descriptor.description.map { String(bundleText: $0) } ?? "",
                families: WidgetFamily.families(inMask: descriptor.families),
                configurationKind: configurationKind,
                configurationName: descriptor.configuration_name.map { String(bundleText: $0) },
                contentMarginsDisabled: DescriptorFlags(rawValue: descriptor.flags).contains(.contentMarginsDisabled),
                configuration: schema))
    }
}
