# The actions every resource of the test server shares: a paged updated_since feed (page
# numbers, or keyset Link headers when no page is asked for) with
# tombstones, strong ETags from lock_version, an If-Match check (412 with the current
# record), soft delete, and creates that honour an Idempotency-Key (and an index that
# finds a record by the key that created it: ?idempotency_key=).
#
# A controller includes it, defines `model` and `record_params`, and declares
#   before_action :set_record, only: [:show, :update, :destroy]
#   before_action :check_if_match, only: [:update, :destroy]
# in that order (ApplicationController callbacks would run before set_record).
module RestResource
  extend ActiveSupport::Concern
  MAX_PER_PAGE = 10_000

  def index
    scope = index_scope
    # Sync scopes: the feed filtered by the attributes a controller allows (filter_fields).
    filter_fields.each { |field| scope = scope.where(field => params[field]) if params.key?(field) }
    if params[:idempotency_key].present?
      ids = IdempotencyKey.where(key: params[:idempotency_key], resource: model.name).select(:record_id)
      scope = scope.where(id: ids)
    end
    if params[:updated_since].present?
      since = Time.iso8601(params[:updated_since]) rescue nil
      return render(json: { error: "bad request", message: "updated_since is not ISO 8601" }, status: :bad_request) unless since
      scope = if params[:after_id].present?
        # Keyset continuation (the Link header's): after (since, after_id) in feed order.
        t = model.arel_table
        scope.where(t[:updated_at].gt(since).or(t[:updated_at].eq(since).and(t[:id].gt(params[:after_id].to_i))))
      else
        scope.updated_since(since)
      end
    else
      scope = scope.live
    end
    per_page = (params[:per_page] || 100).to_i.clamp(1, MAX_PER_PAGE)
    page = [(params[:page] || 1).to_i, 1].max
    rows = scope.in_feed_order.offset((page - 1) * per_page).limit(per_page + 1).to_a
    if rows.size > per_page
      rows = rows.first(per_page)
      # Page-number requests get the next page number; others a keyset link that starts
      # after the last row, so rows changed meanwhile cannot shift the next page.
      next_query = if params[:page].present?
        request.query_parameters.merge("page" => page + 1, "per_page" => per_page)
      else
        request.query_parameters.except("page").merge("updated_since" => rows.last.updated_at.utc.iso8601(6),
                                                      "after_id" => rows.last.id, "per_page" => per_page)
      end
      response.set_header("Link", %(<#{request.base_url}#{request.path}?#{next_query.to_query}>; rel="next"))
    end
    render json: rows
  end

  def show
    render_record(@record)
  end

  def create
    key = request.headers["Idempotency-Key"].presence
    if key && (seen = IdempotencyKey.find_by(key: key, resource: model.name))
      response.set_header("Idempotent-Replayed", "true")
      return render_record(model.find(seen.record_id), status: :created)
    end
    record = model.new(record_params)
    assign_parent(record)
    model.transaction do
      record.save!
      IdempotencyKey.create!(key: key, resource: model.name, record_id: record.id) if key
    end
    render_record(record, status: :created)
  end

  def update
    @record.update!(record_params)
    render_record(@record)
  end

  def destroy
    @record.lock_version = params[:lock_version].to_i if params[:lock_version].present?
    @record.soft_delete!
    head :no_content
  end

  private

  def index_scope
    model.all
  end

  # Attributes the index may be filtered by (`?note=x`); none unless a controller says so.
  def filter_fields
    []
  end

  def assign_parent(record); end

  def set_record
    @record = model.live.find(params[:id])
  end

  def etag(record)
    %("#{record.lock_version}")
  end

  # Rails ignores If-Match; answer 412 with the current record when it names another version.
  def check_if_match
    wanted = request.headers["If-Match"]
    return if wanted.blank? || wanted == "*" || wanted == etag(@record)
    render_record(@record, status: :precondition_failed)
  end

  def render_record(record, status: :ok)
    response.set_header("ETag", etag(record))
    render json: record, status: status
  end
end
