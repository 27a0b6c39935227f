import CWidgetABI

/// Which of Apple's configuration types declared a widget: the header's `widget_configuration_kind_t`.
public enum ConfigurationKind: String, CaseIterable, Sendable {
    case `static`
    case appIntent
    case intent
    /// A Live Activity (`ActivityConfiguration`, ABI 1.7): not a widget; asked only to draw activities.
    case activity
    /// A Control (`ControlWidget`, ABI 1.7): not a widget; asked for its state, and pressed.
    case control

    /// The header's value for the kind.
    package var abiValue: UInt32 {
        let value: widget_configuration_kind_t =
            switch self {
            case .static: WIDGET_CONFIGURATION_STATIC
            case .appIntent: WIDGET_CONFIGURATION_APP_INTENT
            case .intent: WIDGET_CONFIGURATION_INTENT
            case .activity: WIDGET_CONFIGURATION_ACTIVITY
            case .control: WIDGET_CONFIGURATION_CONTROL
            }
        return UInt32(value.rawValue)
    }

    /// The kind of a `widget_configuration_kind_t`; nil for a value the header does not define.
    package init?(abiValue: UInt32) {
        guard let kind = Self.allCases.first(where: { $0.abiValue == abiValue }) else { return nil }
        self = kind
    }

    /// Whether it declares no widget but a Live Activity or a Control, which hosts list apart.
    public var isApart: Bool { self == .activity || self == .control }

    /// The SDK declaration it stands for.
    public var apiName: String {
        switch self {
        case .static: "StaticConfiguration"
        case .appIntent: "AppIntentConfiguration"
        case .intent: "IntentConfiguration"
        case .activity: "ActivityConfiguration"
        case .control: "ControlWidget"
        }
    }
}
