-- wrk: POST an auto de infração per request, offenders taken in turn from
-- $PEOPLE (comma-separated CPFs), with the bearer token in $TOKEN.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
local people = {}
for cpf in string.gmatch(os.getenv("PEOPLE"), "[^,]+") do
  people[#people + 1] = cpf
end
local n = 0
request = function()
  n = n + 1
  local who = people[(n % #people) + 1]
  local body = string.format(
    '{"infracao":"51-I-a","autuado":"%s","regulamento":"santa-maria-de-jetiba/taxi",' ..
    '"cometida_em":"2026-11-28T10:00","local":"Praça Central","descricao":"teste de carga"}', who)
  return wrk.format(nil, nil, nil, body)
end
