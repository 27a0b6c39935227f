import CWidgetABI

/// What the host asks a provider for: the header's `widget_request_kind_t`.
public enum RequestKind: String, CaseIterable, Sendable {
    case placeholder
    case snapshot
    case timeline
    /// The choices for one parameter of a configurable widget (ABI 1.2).
    case options
    /// A configurable widget's preconfigured instances (ABI 1.2).
    case recommendations
    /// A deep link for the bundle's URL handler, its `onOpenURL` (ABI 1.3). The request's argument
    /// is the URL.
    case openURL
    /// An intent to perform, from a `Button(intent:)` or `Toggle` (ABI 1.3). The request's argument
    /// is the intent as its view recorded it.
    case performIntent
    /// The author's previews of a widget, in every family they are written for (ABI 1.5).
    case previews
    /// A Live Activity's presentations, drawn for its attributes and state (ABI 1.7). The
    /// request's configuration is the activity.
    case activity
    /// A control's state and action (ABI 1.7).
    case control

    /// The header's value for the kind.
    package var abiValue: UInt32 {
        let value: widget_request_kind_t =
            switch self {
            case .placeholder: WIDGET_REQUEST_PLACEHOLDER
            case .snapshot: WIDGET_REQUEST_SNAPSHOT
            case .timeline: WIDGET_REQUEST_TIMELINE
            case .options: WIDGET_REQUEST_OPTIONS
            case .recommendations: WIDGET_REQUEST_RECOMMENDATIONS
            case .openURL: WIDGET_REQUEST_OPEN_URL
            case .performIntent: WIDGET_REQUEST_PERFORM_INTENT
            case .previews: WIDGET_REQUEST_PREVIEWS
            case .activity: WIDGET_REQUEST_ACTIVITY
            case .control: WIDGET_REQUEST_CONTROL
            }
        return UInt32(value.rawValue)
    }

    /// The kind of a `widget_request_kind_t`; nil for a value the header does not define.
    package init?(abiValue: UInt32) {
        guard let kind = Self.allCases.first(where: { $0.abiValue == abiValue }) else { return nil }
        self = kind
    }

    /// The minor version of ABI 1 that introduced the kind: a host never sends it to a bundle built
    /// for an older minor.
    package var introducedInMinor: UInt32 {
        switch self {
        case .placeholder, .snapshot, .timeline: 0
        case .options, .recommendations: 2
        case .openURL, .performIntent: 3
        case .previews: 5
        case .activity, .control: 7
        }
    }

    /// Whether only configurable widgets answer it.
    package var needsConfiguration: Bool { self == .options || self == .recommendations }

    /// Whether the answer is entries (and a policy), rather than configuration data.
    package var answersWithEntries: Bool {
        switch self {
        case .placeholder, .snapshot, .timeline: true
        case .options, .recommendations, .openURL, .performIntent, .previews, .activity, .control: false
        }
    }
}
