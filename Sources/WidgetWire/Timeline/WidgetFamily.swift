/// The sizes and shapes a widget can take, with Apple's names.
///
/// `String(describing:)` gives the case name (`"systemSmall"`), which is also the spelling used on
/// the command line and in JSON. WidgetABI maps it to the C header's `widget_family_t`.
public enum WidgetFamily: String, CaseIterable, Hashable, Sendable, Codable {
    case systemSmall
    case systemMedium
    case systemLarge
    case systemExtraLarge
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline

    /// The families a widget supports when it does not say: the system families, as on iOS.
    public static let systemFamilies: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge, .systemExtraLarge]

    /// The size in points the widget is laid out in (iPhone 15 Pro; extra large from iPad).
    public var displaySize: (width: Double, height: Double) {
        switch self {
        case .systemSmall: (158, 158)
        case .systemMedium: (338, 158)
        case .systemLarge: (338, 354)
        case .systemExtraLarge: (715, 338)
        case .accessoryCircular: (72, 72)
        case .accessoryRectangular: (160, 72)
        case .accessoryInline: (234, 26)
        }
    }

    /// The margins, in points on every edge, the system puts between the widget's edge and its
    /// content (iOS 17's content margins), unless the widget says `.contentMarginsDisabled()`:
    /// 16 on the Home Screen, none on the Lock Screen, whose accessory widgets are already small
    /// and set close to the clock. The container background still fills the whole widget.
    /// docs/RENDERING.md has the table.
    public var contentMargin: Double {
        switch self {
        case .systemSmall, .systemMedium, .systemLarge, .systemExtraLarge: 16
        case .accessoryCircular, .accessoryRectangular, .accessoryInline: 0
        }
    }
}
