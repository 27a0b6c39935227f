import WidgetABI

/// How long the host waits for each kind of answer. Placeholders and snapshots must be quick (the
/// system shows them while the user waits); a timeline may fetch data.
public struct RequestDeadlines: Sendable, Equatable {
    public var placeholder: Duration
    public var snapshot: Duration
    public var timeline: Duration

    public static let `default` = RequestDeadlines(placeholder: .seconds(2), snapshot: .seconds(5), timeline: .seconds(15))

    public init(placeholder: Duration, snapshot: Duration, timeline: Duration) {
        self.placeholder = placeholder
        self.snapshot = snapshot
        self.timeline = timeline
    }

    public subscript(kind: RequestKind) -> Duration {
        switch kind {
        case .placeholder: placeholder
        // What a configuration screen shows while the user waits, as a snapshot is.
        case .snapshot, .options, .recommendations: snapshot
        // Previews are a gallery's: a snapshot for each.
        case .previews: snapshot
        // An activity's drawing is shown as soon as the app updates it, as a snapshot is.
        case .activity, .control: snapshot
        // Work done for a tap may fetch data, as a timeline may.
        case .timeline, .openURL, .performIntent: timeline
        }
    }
}
