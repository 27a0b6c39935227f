extension WidgetFamily {
    /// The family a person named: its full name (`systemSmall`) or its short one (`small`, `medium`,
    /// `large`, `extraLarge`, `circular`, `rectangular`, `inline`), in any case. Nil for anything else.
    public init?(named name: String) {
        let folded = name.lowercased()
        guard let family = Self.allCases.first(where: { $0.rawValue.lowercased() == folded || $0.shortName.lowercased() == folded }) else {
            return nil
        }
        self = family
    }

    /// The name without its `system`/`accessory` prefix: `small`, `extraLarge`, `inline`.
    public var shortName: String {
        switch self {
        case .systemSmall: "small"
        case .systemMedium: "medium"
        case .systemLarge: "large"
        case .systemExtraLarge: "extraLarge"
        case .accessoryCircular: "circular"
        case .accessoryRectangular: "rectangular"
        case .accessoryInline: "inline"
        }
    }
}
