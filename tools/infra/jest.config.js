export default { displayName: '@workcell/infra', preset: '../../jest.preset.js' };
