import WidgetsCommandLine

// `widgets` with the shared Swift runtime: every worker process, and the CLI itself when bundles
// are loaded into its process (`--isolation queue`).
WidgetsMain.run()
