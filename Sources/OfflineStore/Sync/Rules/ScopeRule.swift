/// The rules of sync scopes (pure): what happens to an object whose server record left the
/// scope, and what a changed scope still has to pull (Docs/Policies.md, "Sync scopes").
enum ScopeRule {
    /// What happens to the local copy of a record that no longer matches the scope.
    enum Departure: Equatable, Sendable {
        /// Nothing local is pending: the copy goes (the record stays on the server).
        case remove
        /// A pending edit, a failed entry or a conflict: the object stays, and its edit is
        /// pushed (a conflict waits for the app) — an acknowledged edit is never dropped.
        case keep
    }

    /// The departure rule for `row`, which has `queued` queue entries.
    static func departure(of row: ObjectRow, queued: Bool) -> Departure {
        let pending = row.dirty || queued || row.state == .conflicted || row.state == .failed
        return pending ? .keep : .remove
    }

    /// Whether a server record (nil: a tombstone) is in `scope` (nil: the whole collection).
    static func contains(_ scope: ServerQuery?, _ record: JSONValue?) -> Bool {
        guard let scope else { return true }
        guard let record else { return false }
        return scope.matches(record)
    }

    /// What a refresh must pull once after the scope changed from `old` to `new`, besides
    /// its usual pull since the cursor: the records `new` holds that `old` did not, which
    /// may not have changed since. `new ∧ ¬t` for each term `t` of `old` covers exactly
    /// those; a term without a negation makes it a full pull of `new`.
    static func catchUp(from old: ServerQuery?, to new: ServerQuery?) -> ScopeCatchUp? {
        let oldTerms = old?.terms ?? [], newTerms = new?.terms ?? []
        if oldTerms.isEmpty { return nil }            // the old scope held everything: nothing is new
        if Set(oldTerms) == Set(newTerms) { return nil }
        // Every old term also in the new scope cannot be false for a new record: only the
        // others' negations can find records the old scope did not hold.
        let dropped = oldTerms.filter { !newTerms.contains($0) }
        var queries: [ServerQuery] = []
        for term in dropped {
            guard let negated = negation(of: term) else { return .fullPull }
            queries.append(ServerQuery(newTerms + [negated]))
        }
        return .queries(queries)
    }

    /// The term that holds exactly when `term` does not — for every record, including
    /// those without the field — when a server can ask it. Comparisons have none: a record
    /// without the field (or with a value of another type) fails both `n < 3` and `n ≥ 3`.
    static func negation(of term: ServerQuery.Term) -> ServerQuery.Term? {
        let op: ServerQuery.Term.Operator
        switch term.op {
        case .equal: op = .notEqual
        case .notEqual: op = .equal
        case .isIn: op = .notIn
        case .notIn: op = .isIn
        case .has: return ServerQuery.Term(term.field, .has, .bool(term.value != .bool(true)))
        case .lessThan, .atLeast, .greaterThan, .atMost, .contains: return nil
        }
        return ServerQuery.Term(term.field, op, term.value)
    }
}

/// What a changed sync scope still has to pull, stored with the collection until a
/// refresh pulled it.
enum ScopeCatchUp: Codable, Equatable, Sendable {
    /// Pull each query from the beginning, once.
    case queries([ServerQuery])
    /// Pull the whole scope from the beginning (the old scope had a term with no negation).
    case fullPull
}
