class Note < ApplicationRecord
  include SoftDeletable

  # Whether `user` may change this note: its owner, or a user the owner granted.
  def writable_by?(user)
    owner == user || NoteGrant.exists?(owner: owner, grantee: user)
  end
end
