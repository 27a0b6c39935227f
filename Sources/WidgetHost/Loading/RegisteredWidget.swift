import WidgetABI
import WidgetWire

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
    /// Everything its bundle declared of it, as checked.
    var declaration: WidgetDeclaration { fields.declaration }

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
}
