import CWidgetABI
import Testing
import WidgetABI
import WidgetWire

/// Every Swift value that crosses the ABI against the header's constant for it, case by case: a
/// reordered enum, a swapped case or a new case without its constant fails here.
@Suite struct ABIValueTests {
    @Test func familiesAreTheHeadersFamilies() {
        let header: [(WidgetFamily, widget_family_t)] = [
            (.systemSmall, WIDGET_FAMILY_SYSTEM_SMALL), (.systemMedium, WIDGET_FAMILY_SYSTEM_MEDIUM),
            (.systemLarge, WIDGET_FAMILY_SYSTEM_LARGE), (.systemExtraLarge, WIDGET_FAMILY_SYSTEM_EXTRA_LARGE),
            (.accessoryCircular, WIDGET_FAMILY_ACCESSORY_CIRCULAR), (.accessoryRectangular, WIDGET_FAMILY_ACCESSORY_RECTANGULAR),
            (.accessoryInline, WIDGET_FAMILY_ACCESSORY_INLINE),
        ]
        #expect(header.map(\.0) == WidgetFamily.allCases, "every family, once")
        for (family, constant) in header {
            #expect(family.abiValue == constant.rawValue, "\(family)")
            #expect(WidgetFamily(abiValue: constant.rawValue) == family)
        }
        #expect(WidgetFamily.allCases.count == Int(WIDGET_FAMILY_COUNT.rawValue))
        #expect(WidgetFamily(abiValue: WIDGET_FAMILY_COUNT.rawValue) == nil)
        #expect(String(describing: WidgetFamily.systemSmall) == "systemSmall", "Apple's names")
    }

    @Test func familyMasksAreTheHeadersMasks() {
        #expect(WidgetFamily.mask([.systemLarge, .accessoryCircular]) == (1 << WIDGET_FAMILY_SYSTEM_LARGE.rawValue) | (1 << WIDGET_FAMILY_ACCESSORY_CIRCULAR.rawValue))
        #expect(WidgetFamily.mask(WidgetFamily.systemFamilies) == 0b1111, "the header's WIDGET_FAMILIES_SYSTEM")
        #expect(WidgetFamily.families(inMask: WidgetFamily.mask([.accessoryInline, .systemLarge])) == [.systemLarge, .accessoryInline])
        #expect(WidgetFamily.families(inMask: 1 << 20) == [], "bits no family has are ignored")
    }

    @Test func requestKindsAreTheHeadersRequestKinds() {
        let header: [(RequestKind, widget_request_kind_t, UInt32)] = [
            (.placeholder, WIDGET_REQUEST_PLACEHOLDER, 0), (.snapshot, WIDGET_REQUEST_SNAPSHOT, 0), (.timeline, WIDGET_REQUEST_TIMELINE, 0),
            (.options, WIDGET_REQUEST_OPTIONS, 2), (.recommendations, WIDGET_REQUEST_RECOMMENDATIONS, 2),
            (.openURL, WIDGET_REQUEST_OPEN_URL, 3), (.performIntent, WIDGET_REQUEST_PERFORM_INTENT, 3),
            (.previews, WIDGET_REQUEST_PREVIEWS, 5), (.activity, WIDGET_REQUEST_ACTIVITY, 7),
            (.control, WIDGET_REQUEST_CONTROL, 7),
        ]
        #expect(header.map(\.0) == RequestKind.allCases)
        for (kind, constant, minor) in header {
            #expect(kind.abiValue == constant.rawValue, "\(kind)")
            #expect(RequestKind(abiValue: constant.rawValue) == kind)
            #expect(kind.introducedInMinor == minor, "\(kind) came with ABI 1.\(minor)")
        }
        #expect(RequestKind(abiValue: 99) == nil)
    }

    @Test func configurationKindsAreTheHeadersConfigurationKinds() {
        let header: [(ConfigurationKind, widget_configuration_kind_t)] = [
            (.static, WIDGET_CONFIGURATION_STATIC), (.appIntent, WIDGET_CONFIGURATION_APP_INTENT), (.intent, WIDGET_CONFIGURATION_INTENT),
            (.activity, WIDGET_CONFIGURATION_ACTIVITY), (.control, WIDGET_CONFIGURATION_CONTROL),
        ]
        #expect(header.map(\.0) == ConfigurationKind.allCases)
        for (kind, constant) in header {
            #expect(kind.abiValue == constant.rawValue, "\(kind)")
            #expect(ConfigurationKind(abiValue: constant.rawValue) == kind)
        }
        #expect(ConfigurationKind(abiValue: 7) == nil)
    }

    @Test func colourSchemesAndRenderingModesAreTheHeaders() {
        let schemes: [(RenderingEnvironment.ColorScheme, widget_color_scheme_t)] = [(.light, WIDGET_COLOR_SCHEME_LIGHT), (.dark, WIDGET_COLOR_SCHEME_DARK)]
        #expect(schemes.map(\.0) == RenderingEnvironment.ColorScheme.allCases)
        for (scheme, constant) in schemes {
            #expect(scheme.abiValue == constant.rawValue, "\(scheme)")
            #expect(RenderingEnvironment.ColorScheme(abiValue: constant.rawValue) == scheme)
        }
        let modes: [(RenderingEnvironment.RenderingMode, widget_rendering_mode_t)] = [
            (.fullColor, WIDGET_RENDERING_MODE_FULL_COLOR), (.accented, WIDGET_RENDERING_MODE_ACCENTED), (.vibrant, WIDGET_RENDERING_MODE_VIBRANT),
        ]
        #expect(modes.map(\.0) == RenderingEnvironment.RenderingMode.allCases)
        for (mode, constant) in modes {
            #expect(mode.abiValue == constant.rawValue, "\(mode)")
            #expect(RenderingEnvironment.RenderingMode(abiValue: constant.rawValue) == mode)
        }
        // Values the header does not define read as an older request's: light, full colour.
        let unknown = RenderingEnvironment(abiColorScheme: 9, abiRenderingMode: 9, showsContainerBackground: false)
        #expect(unknown == RenderingEnvironment(colorScheme: .light, renderingMode: .fullColor, showsContainerBackground: false))
    }

    @Test func logLevelsAreTheHeadersLogLevels() {
        let header: [(BundleLogLevel, widget_log_level_t)] = [
            (.debug, WIDGET_LOG_DEBUG), (.info, WIDGET_LOG_INFO), (.warning, WIDGET_LOG_WARNING), (.error, WIDGET_LOG_ERROR),
        ]
        #expect(header.map(\.0) == BundleLogLevel.allCases)
        for (level, constant) in header {
            #expect(level.abiValue == constant.rawValue, "\(level)")
            #expect(BundleLogLevel(abiValue: constant.rawValue) == level)
        }
        #expect(BundleLogLevel(abiValue: 42) == .error, "an unknown level is never hidden")
    }

    @Test func aBundleLoadsWhenTheMajorsMatchAndItsMinorIsNoNewer() {
        let host = ABIVersion(major: 1, minor: 4)
        #expect(ABIVersion.current == ABIVersion(major: UInt32(WIDGET_ABI_VERSION_MAJOR), minor: UInt32(WIDGET_ABI_VERSION_MINOR)))
        #expect(ABIVersion.refusal(ofBundle: ABIVersion(major: 1, minor: 0), host: host) == nil)
        #expect(ABIVersion.refusal(ofBundle: host, host: host) == nil)
        #expect(ABIVersion.refusal(ofBundle: ABIVersion(major: 1, minor: 5), host: host) == "needs ABI 1.5, newer than this host's 1.4: update the host")
        #expect(
            ABIVersion.refusal(ofBundle: ABIVersion(major: 2, minor: 0), host: host)
                == "ABI version 2.0 is not supported: this host speaks ABI 1.4 (major versions must match)")
        // The header's own check says the same.
        for (major, minor) in [(1, 0), (1, 4), (1, 5), (2, 0), (0, 4)] as [(UInt32, UInt32)] {
            let bundle = widget_abi_version_t(major: major, minor: minor)
            let c = widget_abi_compatible(widget_abi_version_t(major: 1, minor: 4), bundle)
            #expect(c == (ABIVersion.refusal(ofBundle: ABIVersion(major: major, minor: minor), host: host) == nil), "\(major).\(minor)")
        }
    }

    @Test func resultStatusesAndDescriptorFlagsAreTheHeaders() {
        #expect(ResultStatus.ok.abiValue == Int32(WIDGET_STATUS_OK.rawValue))
        #expect(ResultStatus.error.abiValue == Int32(WIDGET_STATUS_ERROR.rawValue))
        #expect(ResultStatus.allCases.map { ResultStatus(abiValue: $0.abiValue) } == [.ok, .error])
        #expect(ResultStatus(abiValue: 2) == nil)
        #expect(DescriptorFlags.contentMarginsDisabled.rawValue == UInt32(WIDGET_FLAG_CONTENT_MARGINS_DISABLED))
    }

    /// The sizes the header pins for each minor version (its WIDGET_*_SIZE_1_x and _Static_asserts).
    @Test func structSizesAreEachMinorVersionsSizes() {
        #expect((0...6).map { ABISize.request(forMinor: $0) } == [48, 48, 56, 72, 81, 81, 81])
        #expect((0...6).map { ABISize.bundle(forMinor: $0) } == [56, 64, 64, 72, 72, 104, 120])
        #expect((0...6).map { ABISize.descriptor(forMinor: $0) } == [52, 52, 64, 64, 64, 64, 64])
        #expect((0...6).map { ABISize.host(forMinor: $0) } == [40, 40, 40, 40, 40, 40, 48])
        #expect(ABISize.result == 32)
        #expect(ABISize.bundle(forMinor: ABIVersion.current.minor) == MemoryLayout<widget_bundle_t>.size, "the newest is the whole struct")
        #expect(ABISize.descriptor(forMinor: ABIVersion.current.minor) == MemoryLayout<widget_descriptor_t>.size)
        #expect(ABISize.host(forMinor: ABIVersion.current.minor) == MemoryLayout<widget_host_t>.size)
    }
}
