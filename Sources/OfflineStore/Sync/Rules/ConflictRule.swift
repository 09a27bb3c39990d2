/// What a collection's conflict policy says about one conflict (pure).
enum ConflictRule {
    /// The conflict of a row whose persistent copy and server version already hold the server's state.
    static func conflict(of row: ObjectRow) -> Conflict {
        Conflict(collection: row.collection, id: row.id, base: row.base,
                 local: row.isLocallyDeleted ? nil : row.local, server: row.persistent, serverVersion: row.serverVersion)
    }

    /// The resolution the policy gives, or nil when the app's custom resolver decides: it
    /// is asked after the transaction that met the conflict committed, never inside it.
    /// Identical local and server copies (both deleted, or the same edit made twice) are no
    /// conflict: the server's stands.
    static func decide(_ conflict: Conflict, policy: ConflictPolicy) -> Resolution? {
        if conflict.local == conflict.server { return .keepServer }
        switch policy {
        case .preserveConflict: return .preserve
        case .clientWins: return .keepLocal
        case .serverWins: return .keepServer
        case .merge:
            return ThreeWayMerge.merge(base: conflict.base, local: conflict.local, server: conflict.server)
                .map(Resolution.merged) ?? .preserve
        case .custom: return nil
        }
    }
}
