import CWidgetABI

/// How a bundle answered a request: the header's `widget_status_t`.
package enum ResultStatus: CaseIterable, Sendable {
    case ok
    /// The provider failed; the result's `error_message` says why.
    case error

    /// The header's value, as `widget_result_t.status` holds it.
    package var abiValue: Int32 {
        let value: widget_status_t =
            switch self {
            case .ok: WIDGET_STATUS_OK
            case .error: WIDGET_STATUS_ERROR
            }
        return Int32(value.rawValue)
    }

    /// The status of a `widget_result_t.status`; nil for a value the header does not define.
    package init?(abiValue: Int32) {
        guard let status = Self.allCases.first(where: { $0.abiValue == abiValue }) else { return nil }
        self = status
    }
}

/// The header's `WIDGET_FLAG_*` bits of `widget_descriptor_t.flags`.
package struct DescriptorFlags: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The widget said `.contentMarginsDisabled()`: its content is drawn without the system's margins.
    package static let contentMarginsDisabled = DescriptorFlags(rawValue: UInt32(WIDGET_FLAG_CONTENT_MARGINS_DISABLED))
}
