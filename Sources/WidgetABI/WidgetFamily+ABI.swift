import CWidgetABI
import WidgetWire

extension WidgetFamily {
    /// The header's `widget_family_t` for the family.
    package var abiValue: UInt32 {
        let value: widget_family_t =
            switch self {
            case .systemSmall: WIDGET_FAMILY_SYSTEM_SMALL
            case .systemMedium: WIDGET_FAMILY_SYSTEM_MEDIUM
            case .systemLarge: WIDGET_FAMILY_SYSTEM_LARGE
            case .systemExtraLarge: WIDGET_FAMILY_SYSTEM_EXTRA_LARGE
            case .accessoryCircular: WIDGET_FAMILY_ACCESSORY_CIRCULAR
            case .accessoryRectangular: WIDGET_FAMILY_ACCESSORY_RECTANGULAR
            case .accessoryInline: WIDGET_FAMILY_ACCESSORY_INLINE
            }
        return UInt32(value.rawValue)
    }

    /// The family of a `widget_family_t`; nil for a value the header does not define.
    package init?(abiValue: UInt32) {
        guard let family = Self.allCases.first(where: { $0.abiValue == abiValue }) else { return nil }
        self = family
    }

    /// The header's bit mask of families (`WIDGET_FAMILY_MASK`), as a descriptor's `families` holds it.
    /// An array, not any sequence: a generic left unspecialized across modules looks up the
    /// sequence's element and iterator at run time, the first time in each worker by a search of
    /// every loaded library.
    package static func mask(_ families: [WidgetFamily]) -> UInt32 {
        var mask: UInt32 = 0
        for family in families { mask |= 1 << family.abiValue }
        return mask
    }

    /// The families in a mask, in declaration order; bits no family has are ignored.
    package static func families(inMask mask: UInt32) -> [WidgetFamily] {
        allCases.filter { mask & (1 << $0.abiValue) != 0 }
    }
}
