/// The home screen's page, its style and its script: static text, served as they are. What the
/// page shows comes from its event stream (`/events`); what it does goes through the host's
/// endpoints (docs/WEB.md).
enum HomePage {
    /// Scripts only from this server (never inline, never a `javascript:` URL a bundle's link
    /// might carry), nothing loaded from elsewhere, no framing.
    static let policy: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        )
    ]

    /// The page, its script and its style: files of their own (Sources/WidgetWeb/Page), embedded
    /// in the program when it is built, so that they are read, linted and diffed as what they are.
    static let html = String(decoding: PackageResources.home_html, as: UTF8.self)
    static let script = String(decoding: PackageResources.home_js, as: UTF8.self)
    static let style = String(decoding: PackageResources.home_css, as: UTF8.self)
    /// The page's icon (its tab, a `chromium --app` window): a widget grid.
    static let icon = String(decoding: PackageResources.favicon_svg, as: UTF8.self)
}
