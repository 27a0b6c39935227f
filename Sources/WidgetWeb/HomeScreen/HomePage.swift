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

    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Widgets</title>
        <link rel="stylesheet" href="/home.css">
        <script src="/home.js" defer></script>
        </head>
        <body>
        <header>
        <h1>Widgets</h1>
        <span id="connection" class="connection">connecting…</span>
        <button id="add" type="button">Add Widget</button>
        </header>
        <main id="screen" aria-live="polite">
        <section id="lock" class="lock-screen" aria-label="Lock Screen" hidden></section>
        <section id="home" class="home-grid" aria-label="Home Screen"></section>
        </main>
        <p id="empty" class="empty" hidden>No widgets yet. Choose <b>Add Widget</b>, or run <code>widgets add KIND</code>.</p>
        <div id="toast" class="toast" role="status" hidden></div>
        <dialog id="editor">
        <h2 id="editor-title">Edit Widget</h2>
        <p id="editor-description" class="description"></p>
        <div id="editor-fields"></div>
        <p id="editor-error" class="error" hidden></p>
        <div class="buttons"><button type="button" id="editor-cancel">Cancel</button><button type="button" id="editor-save" class="primary">Done</button></div>
        </dialog>
        <dialog id="gallery">
        <h2>Add Widget</h2>
        <div id="gallery-widgets"><p>Loading…</p></div>
        <div class="buttons"><button type="button" id="gallery-close">Close</button></div>
        </dialog>
        </body>
        </html>

        """
}
