# Microsecond timestamps in JSON, so an updated_since cursor never loses precision.
ActiveSupport::JSON::Encoding.time_precision = 6
