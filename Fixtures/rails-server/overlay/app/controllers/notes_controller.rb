# Notes with per-user authorization: every signed-in user reads every note; creating makes
# the user its owner; updating or deleting another user's note answers 403 unless its owner
# granted the user (POST /note_grants).
class NotesController < ApplicationController
  include BasicUser
  include RestResource
  before_action :set_record, only: [:show, :update, :destroy]
  before_action :authorize_write, only: [:update, :destroy]
  before_action :check_if_match, only: [:update, :destroy]

  private

  def model = Note

  def assign_parent(record)
    record.owner = @user
  end

  def authorize_write
    return if @record.writable_by?(@user)
    render json: { error: "forbidden", message: "note #{@record.id} belongs to #{@record.owner}" }, status: :forbidden
  end

  def record_params
    params.require(:note).permit(:text, :lock_version)
  end
end
