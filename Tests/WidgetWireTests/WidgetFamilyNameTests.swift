import Testing
import WidgetWire

/// A family's short name, as `list --short` prints it and `--family` takes it.
@Suite struct WidgetFamilyNameTests {
    @Test func shortNamesAreTheFullNamesWithoutTheirPrefix() {
        #expect(WidgetFamily.allCases.map(\.shortName) == ["small", "medium", "large", "extraLarge", "circular", "rectangular", "inline"])
        for family in WidgetFamily.allCases {
            let stem = family.rawValue.drop { $0.isLowercase }
            #expect(family.shortName == stem.prefix(1).lowercased() + stem.dropFirst(), "\(family)")
            #expect(WidgetFamily(named: family.shortName) == family)
            #expect(WidgetFamily(named: family.shortName.uppercased()) == family)
            #expect(WidgetFamily(named: family.rawValue) == family)
        }
        #expect(WidgetFamily(named: "tiny") == nil)
    }
}
