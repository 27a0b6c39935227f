extension Command {
    /// Every command, in the order help lists them. Dispatch, help, the man page, the completions and
    /// their tests are all made from this table.
    static let all: [Command] = [
        .list, .load, .placeholder, .snapshot, .timeline, .add, .instances, .configure, .remove, .options, .recommendations,
        .run, .watch, .status, .home, .desktop, .activity, .control, .reload, .configurations, .open, .tap, .render, .preview, .gallery, .build, .sdk, .stats, .completions, .man,
    ]
}
