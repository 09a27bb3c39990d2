# JSON errors for every controller: 404 for missing records and routes, 409 for a stale
# lock_version (without the record: clients GET it), 422 with the validation messages.
class ApplicationController < ActionController::API
  rescue_from ActiveRecord::RecordNotFound do |e|
    render json: { error: "not found", message: e.message }, status: :not_found
  end

  rescue_from ActiveRecord::StaleObjectError do |e|
    render json: { error: "stale object", message: "the record was changed by someone else" }, status: :conflict
  end

  rescue_from ActiveRecord::RecordInvalid do |e|
    render json: e.record.errors, status: :unprocessable_entity
  end

  def route_not_found
    render json: { error: "not found", message: "no route for #{request.method} #{request.path}" }, status: :not_found
  end
end
